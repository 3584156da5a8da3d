package emulator

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

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
				m := checkJob(t, e.startFile(GLActualsTemplateID, parts...), StatusCompleted)
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
			wantError(t, e.startFile(GLActualsTemplateID, metaPart(metaFor("CSV", c.enc)), filePart(string(c.raw))), http.StatusBadRequest, c.want, "offset")
			wantError(t, e.startFile(GLActualsTemplateID, filePart(string(c.raw)), metaPart(metaFor("CSV", c.enc))), http.StatusBadRequest, c.want)
		})
	}
	// An invalid byte after a malformed record is still found.
	wantError(t, e.startFile(GLActualsTemplateID, metaPart(metaGL), filePart("Account,Amount\n\"x\"y,1\n4000,\xff\n")), http.StatusBadRequest, "UTF-8")
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created", n)
	}
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
		enc  string
		raw  []byte
		want string
	}{
		{"utf-8", encodingUTF8, append([]byte("\xef\xbb\xbf"), full...), full},
		{"utf-16le", encodingUTF16, utf16Bytes(full, true, true), full},
		{"utf-16be", encodingUTF16, utf16Bytes(full, false, false), full},
		{"latin-1", encodingLatin1, []byte(latin), latinWant},
	} {
		for _, wrap := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader} {
			d := newTextReader(wrap(bytes.NewReader(c.raw)), c.enc)
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

// TestDecodeErrorOffsets checks the offset and message of each kind of
// bytes that do not decode, read whole and one byte at a time.
func TestDecodeErrorOffsets(t *testing.T) {
	head := "Account,Amount\n" // 15 bytes; 30 in UTF-16, 32 with a byte order mark
	cases := []struct {
		name, enc string
		raw       []byte
		off       int64
		msg       string
	}{
		{"utf-8", encodingUTF8, []byte(head + "4000,\xff\n"), 20, "invalid UTF-8"},
		{"utf-8 after bom", encodingUTF8, []byte("\xef\xbb\xbf" + head + "\xff"), 18, "invalid UTF-8"},
		{"utf-8 cut at end", encodingUTF8, []byte(head + "\xe2\x82"), 15, "invalid UTF-8"},
		{"utf-8 bom alone cut", encodingUTF8, []byte("\xef\xbb"), 0, "invalid UTF-8"},
		{"utf-16 odd", encodingUTF16, append(utf16Bytes(head, true, true), 'x'), 32, "odd number of bytes"},
		{"utf-16 odd 0xFF", encodingUTF16, append(utf16Bytes(head, false, false), 0xFF), 30, "odd number of bytes"},
		{"utf-16 one byte", encodingUTF16, []byte{'a'}, 0, "odd number of bytes"},
		{"utf-16 high then text", encodingUTF16, append(utf16Bytes(head, false, true), 0xD8, 0x00, 0x00, 'x'), 32, "unpaired surrogate"},
		{"utf-16 high at end", encodingUTF16, append(utf16Bytes(head, false, false), 0xD8, 0x00), 30, "unpaired surrogate"},
		{"utf-16 low", encodingUTF16, append(utf16Bytes(head, true, true), 0x00, 0xDC, 'a', 0), 32, "unpaired surrogate"},
		{"utf-16 two lows", encodingUTF16, append(utf16Bytes(head, false, false), 0xDC, 0x00, 0xDC, 0x00), 30, "unpaired surrogate"},
		{"latin-1", encodingLatin1, []byte(head + "ab\x9d"), 17, "byte 0x9D is undefined"},
	}
	for _, c := range cases {
		for name, wrap := range map[string]func(io.Reader) io.Reader{"whole": func(r io.Reader) io.Reader { return r }, "bytewise": iotest.OneByteReader} {
			_, err := io.ReadAll(newTextReader(wrap(bytes.NewReader(c.raw)), c.enc))
			var de *decodeError
			if !errors.As(err, &de) || de.off != c.off || !strings.Contains(de.msg, c.msg) {
				t.Errorf("%s (%s): err = %v, want %q at offset %d", c.name, name, err, c.msg, c.off)
			}
		}
	}
}

// TestDecodeKeepsReplacementCharacter: U+FFFD written in the file is text,
// not a byte that failed to decode.
func TestDecodeKeepsReplacementCharacter(t *testing.T) {
	const text = "a,\uFFFD\n"
	for _, raw := range []struct {
		enc string
		b   []byte
	}{{encodingUTF8, []byte(text)}, {encodingUTF16, utf16Bytes(text, true, true)}, {encodingUTF16, utf16Bytes(text, false, false)}} {
		got, err := io.ReadAll(newTextReader(bytes.NewReader(raw.b), raw.enc))
		if err != nil || string(got) != text {
			t.Errorf("%s % x: %q, %v", raw.enc, raw.b, got, err)
		}
	}
}

func TestKnownEncoding(t *testing.T) {
	for name, want := range map[string]bool{"UTF-8": true, "UTF-16": true, "Windows Latin-1": true, "utf-8": false, "UTF-16LE": false, "": false} {
		if knownEncoding(name) != want {
			t.Errorf("knownEncoding(%q) = %v", name, !want)
		}
	}
}
