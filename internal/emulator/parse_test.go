package emulator

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

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
						return e.startFile(GLActualsTemplateID, metaPart(meta), filePart(file))
					}
					return e.startFile(GLActualsTemplateID, filePart(file), metaPart(meta))
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

func TestParseFlatFile(t *testing.T) {
	cases := []struct {
		name, format, enc string
		raw               []byte
		header            []string
		rows              int
		problem           string
	}{
		{"csv", "CSV", "UTF-8", []byte("a,b\r\n1,2\n\n\"x\ny\",\"q\"\"\"\n"), []string{"a", "b"}, 2, ""},
		{"psv utf-16", "PSV", "UTF-16", utf16Bytes("a|b\n1|2\n", true, true), []string{"a", "b"}, 1, ""},
		{"tdf latin-1", "TDF", "Windows Latin-1", []byte("a\tb\n\xe9\t2"), []string{"a", "b"}, 1, ""},
		{"header only", "CSV", "UTF-8", []byte("a,b\n"), []string{"a", "b"}, 0, ""},
		{"empty", "CSV", "UTF-8", nil, nil, 0, "no header"},
		{"bom only", "CSV", "UTF-8", []byte("\xef\xbb\xbf"), nil, 0, "no header"},
		{"blank lines", "CSV", "UTF-8", []byte("\n\r\n"), nil, 0, "no header"},
		{"width", "CSV", "UTF-8", []byte("a,b\n1,2\n3\n4,5\n"), []string{"a", "b"}, 3, "width"},
		{"bare quote", "CSV", "UTF-8", []byte("a,b\n1,2\"\n"), []string{"a", "b"}, 0, "malformed"},
		{"open quote", "CSV", "UTF-8", []byte("a,b\n1,\"2\n"), []string{"a", "b"}, 0, "malformed"},
		{"bad byte", "CSV", "UTF-8", []byte("a,b\n1,\xff\n"), []string{"a", "b"}, 0, "encoding"},
		{"bad byte after malformed", "CSV", "UTF-8", []byte("a,b\n\"1\"x,2\n\xff"), []string{"a", "b"}, 0, "encoding"},
		{"format", "XLSX", "UTF-8", []byte("a\n"), nil, 0, "format"},
		{"encoding", "CSV", "ASCII", []byte("a\n"), nil, 0, "encoding"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := ParseFlatFile(bytes.NewReader(c.raw), c.format, c.enc)
			var pe *ParseError
			switch {
			case c.problem == "" && err != nil:
				t.Fatalf("err = %v", err)
			case c.problem != "" && (!errors.As(err, &pe) || pe.Problem != c.problem || pe.Message == ""):
				t.Fatalf("err = %#v, want problem %q", err, c.problem)
			}
			if !reflect.DeepEqual(res.Header, c.header) || res.Rows != c.rows {
				t.Errorf("result = %+v, want header %q, %d rows", res, c.header, c.rows)
			}
		})
	}
	// A read error is returned as is.
	boom := errors.New("boom")
	if _, err := ParseFlatFile(iotest.ErrReader(boom), "CSV", "UTF-8"); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

// uploadVerdict uploads raw to a server with a template that requires no
// column and reports whether it refused the file for its form (400, or a
// job in ERROR), and the rows it counted.
func uploadVerdict(t *testing.T, e *env, raw []byte, format, enc string) (refused bool, rows int) {
	t.Helper()
	r := e.startFile("1", metaPart(metaFor(format, enc)), filePart(string(raw)))
	if r.status == http.StatusBadRequest {
		return true, 0
	}
	if r.status != http.StatusOK {
		t.Fatalf("upload: %d %s", r.status, r.body)
	}
	var m map[string]any
	r.json(t, &m)
	j, _ := e.srv.Job(m["id"].(string))
	return j.Status == StatusError, j.Upload.RowCount
}

// FuzzParseFlatFileMatchesUpload checks that ParseFlatFile refuses a file
// exactly when an upload of it is refused (400) or fails (ERROR), and
// counts the same rows.
func FuzzParseFlatFileMatchesUpload(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n"), uint8(0))
	f.Add([]byte("a,b\n1,\"2\n3\",4\n5\n"), uint8(0))
	f.Add([]byte("\xef\xbb\xbfa|b\n\xe9|\x81\n"), uint8(5))
	f.Add(utf16Bytes("a\tb\n1\t\U0001D11E\n", true, true), uint8(7))
	f.Add([]byte{0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x0A}, uint8(1))
	srv := New(Options{Instant: true, MaxKeptRows: 2,
		Templates: []Template{{ID: "1", Name: "Any", ModelID: "2", ModelName: "M", Steps: []Step{{StepName: "S", DataType: "Values", InputID: "3"}}}}})
	ts := httptest.NewServer(srv)
	f.Cleanup(ts.Close)
	formats, encodings := []string{"CSV", "PSV", "TDF"}, []string{"UTF-8", "UTF-16", "Windows Latin-1"}
	f.Fuzz(func(t *testing.T, raw []byte, pick uint8) {
		format, enc := formats[int(pick)%3], encodings[int(pick)/3%3]
		e := &env{t: t, srv: srv, ts: ts}
		res, err := ParseFlatFile(bytes.NewReader(raw), format, enc)
		refused, rows := uploadVerdict(t, e, raw, format, enc)
		if (err != nil) != refused {
			t.Fatalf("%s %s % x: ParseFlatFile err = %v, upload refused = %v", format, enc, raw, err, refused)
		}
		if err == nil && res.Rows != rows {
			t.Fatalf("%s %s % x: ParseFlatFile %d rows, upload %d", format, enc, raw, res.Rows, rows)
		}
	})
}
