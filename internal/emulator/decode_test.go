package emulator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
)

func utf16Bytes(s string, little, bom bool) []byte {
	var buf bytes.Buffer
	order := binary.ByteOrder(binary.BigEndian)
	if little {
		order = binary.LittleEndian
	}
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		var b [2]byte
		order.PutUint16(b[:], u)
		buf.Write(b[:])
	}
	return buf.Bytes()
}

// The text every encoding test decodes: non-ASCII, a surrogate pair, CRLF.
const intlCSV = "Account,Amount,City\r\n4000,1.5,Montréal\r\n5000,€2,\"Zürich, 𝄞\"\r\n"

var intlRows = [][]string{{"4000", "1.5", "Montréal"}, {"5000", "€2", "Zürich, 𝄞"}}

func TestEncodings(t *testing.T) {
	latin := strings.NewReplacer("é", "\xe9", "€", "\x80", "ü", "\xfc").Replace(strings.ReplaceAll(intlCSV, ", 𝄞", ""))
	cases := []struct {
		name, enc string
		raw       []byte
		rows      [][]string
	}{
		{"utf-8", "UTF-8", []byte(intlCSV), intlRows},
		{"utf-8 bom", "UTF-8", append([]byte("\xef\xbb\xbf"), intlCSV...), intlRows},
		{"utf-16le bom", "UTF-16", utf16Bytes(intlCSV, true, true), intlRows},
		{"utf-16be bom", "UTF-16", utf16Bytes(intlCSV, false, true), intlRows},
		{"utf-16 no bom is big-endian", "UTF-16", utf16Bytes(intlCSV, false, false), intlRows},
		{"windows latin-1", "Windows Latin-1", []byte(latin), [][]string{{"4000", "1.5", "Montréal"}, {"5000", "€2", "Zürich"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, Options{Instant: true})
			for _, metaFirst := range []bool{true, false} {
				parts := []part{metaPart(metaFor("CSV", c.enc)), filePart(string(c.raw))}
				if !metaFirst {
					parts[0], parts[1] = parts[1], parts[0]
				}
				m := checkJob(t, e.startFile(tmplGL, parts...), StatusCompleted)
				j, _ := e.srv.Job(m["id"].(string))
				if !reflect.DeepEqual(j.Upload.Header, []string{"Account", "Amount", "City"}) {
					t.Errorf("header = %q", j.Upload.Header)
				}
				if !reflect.DeepEqual(j.Upload.Rows, c.rows) {
					t.Errorf("rows = %q, want %q", j.Upload.Rows, c.rows)
				}
				if j.Upload.Bytes != int64(len(c.raw)) || j.Upload.Encoding != c.enc {
					t.Errorf("upload = %+v", j.Upload)
				}
			}
		})
	}
}

func TestInvalidEncodings(t *testing.T) {
	cases := []struct {
		name, enc string
		raw       []byte
		want      string
	}{
		{"utf-8 bad byte", "UTF-8", []byte("Account,Amount\n4000,\xff\n"), "UTF-8"},
		{"utf-8 truncated at end", "UTF-8", []byte("Account,Amount\n4000,\xe2\x82"), "UTF-8"},
		{"utf-8 overlong", "UTF-8", []byte("Account,Amount\n\xc0\xaf,1\n"), "UTF-8"},
		{"utf-8 surrogate", "UTF-8", []byte("Account,Amount\n\xed\xa0\x80,1\n"), "UTF-8"},
		{"utf-16 odd length", "UTF-16", append(utf16Bytes("Account,Amount\n", true, true), 'x'), "odd"},
		{"utf-16 lone high surrogate", "UTF-16", append(utf16Bytes("Account,Amount\n", false, true), 0xD8, 0x00, 0x00, 'x'), "surrogate"},
		{"utf-16 high surrogate at end", "UTF-16", append(utf16Bytes("Account,Amount\n", false, true), 0xD8, 0x00), "surrogate"},
		{"utf-16 lone low surrogate", "UTF-16", append(utf16Bytes("Account,Amount\n", true, true), 0x00, 0xDC), "surrogate"},
		{"windows latin-1 0x81", "Windows Latin-1", []byte("Account,Amount\n\x81,1\n"), "0x81"},
		{"windows latin-1 0x8D", "Windows Latin-1", []byte("Account,Amount\n\x8d,1\n"), "0x8D"},
		{"windows latin-1 0x8F", "Windows Latin-1", []byte("Account,Amount\n\x8f,1\n"), "0x8F"},
		{"windows latin-1 0x90", "Windows Latin-1", []byte("Account,Amount\n\x90,1\n"), "0x90"},
		{"windows latin-1 0x9D", "Windows Latin-1", []byte("Account,Amount\n\x9d,1\n"), "0x9D"},
	}
	e := newEnv(t, Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startFile(tmplGL, metaPart(metaFor("CSV", c.enc)), filePart(string(c.raw))), http.StatusBadRequest, c.want, "offset")
			wantError(t, e.startFile(tmplGL, filePart(string(c.raw)), metaPart(metaFor("CSV", c.enc))), http.StatusBadRequest, c.want)
		})
	}
	// An invalid byte after a malformed record is still found.
	wantError(t, e.startFile(tmplGL, metaPart(metaGL), filePart("Account,Amount\n\"x\"y,1\n4000,\xff\n")), http.StatusBadRequest, "UTF-8")
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created", n)
	}
}

func TestDelimiters(t *testing.T) {
	for _, c := range []struct {
		format string
		sep    string
	}{{"CSV", ","}, {"PSV", "|"}, {"TDF", "\t"}} {
		t.Run(c.format, func(t *testing.T) {
			s := c.sep
			file := "Account" + s + "Amount" + s + "Note\n" +
				"4000" + s + "1" + s + "\"has " + s + " inside\"\r\n" +
				"5000" + s + "2" + s + "\"two\nlines and \"\"quotes\"\"\"\n" +
				"\n" + // empty lines are skipped
				"6000" + s + "3" + s + "plain"
			e := newEnv(t, Options{Instant: true})
			// File first too: then the part is spooled and parsed as it
			// streams with a sniffed format, which the metadata confirms or
			// not (the other delimiter case reads the spool back).
			for _, metaFirst := range []bool{true, false} {
				start := func(meta string) resp {
					if metaFirst {
						return e.startFile(tmplGL, metaPart(meta), filePart(file))
					}
					return e.startFile(tmplGL, filePart(file), metaPart(meta))
				}
				m := checkJob(t, start(metaFor(c.format, "UTF-8")), StatusCompleted)
				j, _ := e.srv.Job(m["id"].(string))
				want := [][]string{{"4000", "1", "has " + s + " inside"}, {"5000", "2", "two\nlines and \"quotes\""}, {"6000", "3", "plain"}}
				if !reflect.DeepEqual(j.Upload.Rows, want) || j.Upload.RowCount != 3 || j.Upload.Format != c.format {
					t.Errorf("rows = %q (%d)", j.Upload.Rows, j.Upload.RowCount)
				}
				// The same file read with another delimiter has no Amount column.
				other := map[string]string{"CSV": "PSV", "PSV": "TDF", "TDF": "CSV"}[c.format]
				m = checkJob(t, start(metaFor(other, "UTF-8")), StatusError)
				if j, _ := e.srv.Job(m["id"].(string)); !strings.Contains(j.Message, "missing required column") {
					t.Errorf("message = %q, rows %d", j.Message, j.Upload.RowCount)
				}
			}
		})
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		in             []byte
		format, encode string
	}{
		{[]byte("a,b\n1,2\n"), "CSV", "UTF-8"},
		{[]byte("a|b|c\n1,2\n"), "PSV", "UTF-8"},
		{[]byte("a\tb\n"), "TDF", "UTF-8"},
		{[]byte("\xef\xbb\xbfa,b"), "CSV", "UTF-8"},
		{[]byte("Montr\xe9al,b\n"), "CSV", "Windows Latin-1"},
		{utf16Bytes("a|b\n", true, true), "PSV", "UTF-16"},
		{utf16Bytes("a,b\n", false, false), "CSV", "UTF-16"},
		{nil, "CSV", "UTF-8"},
	}
	for _, c := range cases {
		f, e := sniff(c.in)
		if f != c.format || e != c.encode {
			t.Errorf("sniff(%q) = %s, %s; want %s, %s", c.in, f, e, c.format, c.encode)
		}
	}
}

func TestColumnRules(t *testing.T) {
	cases := []struct {
		name, tmpl, file, status, msg string
		rows                          int
	}{
		{"complete", tmplGL, "Account,Amount,Extra\n1,2,3\n", StatusCompleted, "", 1},
		{"reordered", tmplGL, "Amount,Account\n1,2\n", StatusCompleted, "", 1},
		{"header only", tmplGL, "Account,Amount\n", StatusCompleted, "", 0},
		{"missing one", tmplGL, "Account,Value\n1,2\n", StatusError, `missing required column "Amount"`, 1},
		{"missing both", tmplHead, "Name\nx\n", StatusError, `"Employee", "Department"`, 1},
		{"case matters", tmplGL, "account,amount\n1,2\n", StatusError, `"Account"`, 1},
		{"empty file", tmplGL, "", StatusError, "no header", 0},
		{"blank lines only", tmplGL, "\n\r\n\n", StatusError, "no header", 0},
		{"ragged row", tmplGL, "Account,Amount\n1,2\n3\n4,5\n", StatusError, "data row 2 (line 3) has 1 fields", 3},
		{"bare quote", tmplGL, "Account,Amount\n1,2\n3,4\"x\n5,6\n", StatusError, "malformed file", 1},
		{"unterminated quote", tmplGL, "Account,Amount\n1,\"2\n", StatusError, "malformed file", 0},
	}
	e := newEnv(t, Options{Instant: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := checkJob(t, e.startFile(c.tmpl, metaPart(metaGL), filePart(c.file)), c.status)
			j, _ := e.srv.Job(m["id"].(string))
			if !strings.Contains(j.Message, c.msg) || (c.msg == "") != (j.Message == "") {
				t.Errorf("message = %q, want %q", j.Message, c.msg)
			}
			if j.Upload.RowCount != c.rows {
				t.Errorf("rows = %d, want %d", j.Upload.RowCount, c.rows)
			}
		})
	}
	t.Run("data", func(t *testing.T) {
		m := checkJob(t, e.startData(tmplSales, `{"input":{"data":[["Product"],["a"]]}}`), StatusError)
		if j, _ := e.srv.Job(m["id"].(string)); j.Message != `missing required column "Units"` {
			t.Errorf("message = %q", j.Message)
		}
		m = checkJob(t, e.startData(tmplSales, `{"input":{"data":[["Product","Units"],["a",1],["b"]]}}`), StatusError)
		if j, _ := e.srv.Job(m["id"].(string)); !strings.Contains(j.Message, "data row 2 has 1 fields") {
			t.Errorf("message = %q", j.Message)
		}
		checkJob(t, e.startData(tmplSales, `{"other":1,"input":{"x":[1],"data":[["Units","Product"]]}}`), StatusCompleted)
	})
}

// TestDecodeChunkBoundaries feeds each encoding one byte at a time and in
// odd-sized chunks, so every multi-byte sequence straddles reads.
func TestDecodeChunkBoundaries(t *testing.T) {
	text := strings.Repeat(intlCSV[len("Account,Amount,City\r\n"):], 200)
	full := "Account,Amount,City\r\n" + text
	latin := strings.NewReplacer("é", "\xe9", "€", "\x80", "ü", "\xfc", ", 𝄞", "").Replace(full)
	latinWant := strings.NewReplacer(", 𝄞", "").Replace(full)
	for _, c := range []struct {
		name string
		conv func() converter
		raw  []byte
		want string
	}{
		{"utf-8", func() converter { return &utf8Conv{} }, append([]byte("\xef\xbb\xbf"), full...), full},
		{"utf-16le", func() converter { return &utf16Conv{} }, utf16Bytes(full, true, true), full},
		{"utf-16be", func() converter { return &utf16Conv{} }, utf16Bytes(full, false, false), full},
		{"latin-1", func() converter { return latin1Conv{} }, []byte(latin), latinWant},
	} {
		for _, wrap := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader} {
			d := newDecodeReader(wrap(bytes.NewReader(c.raw)), c.conv())
			// Read through small buffers too, so output is staged.
			var out bytes.Buffer
			buf := make([]byte, 7)
			for {
				n, err := d.Read(buf)
				out.Write(buf[:n])
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
			}
			if out.String() != c.want {
				t.Errorf("%s: decoded text differs (%d bytes vs %d)", c.name, out.Len(), len(c.want))
			}
		}
	}
}
