package emulator

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

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

func TestValidUTF8Start(t *testing.T) {
	for in, want := range map[string]bool{
		"abc": true, "Montr\xc3\xa9al": true, "cut \xe2\x82": true, "cut \xf0\x9d": true,
		"Montr\xe9al": false, "bad \xff end": false, "\xe2\x82 then text": false, "": true,
	} {
		if got := validUTF8Start([]byte(in)); got != want {
			t.Errorf("validUTF8Start(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestSpooledPartParsedOnce: a file part before the metadata is parsed
// while it is spooled when the sniffed format and encoding are right, and
// read back otherwise; both give the same upload, and no temp file stays.
func TestSpooledPartParsedOnce(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e := newEnv(t, Options{Instant: true})
	latin := "Account;x,Amount\nMontr\xe9al,1\n"
	for _, c := range []struct{ content, format, enc string }{
		{glCSV, "CSV", "UTF-8"},           // sniffed right
		{glCSV, "CSV", "Windows Latin-1"}, // sniffed UTF-8: read back
		{latin, "CSV", "Windows Latin-1"}, // sniffed right
		{strings.ReplaceAll(glCSV, ",", "|"), "PSV", "UTF-8"},
	} {
		first := checkJob(t, e.startFile(GLActualsTemplateID, filePart(c.content), metaPart(metaFor(c.format, c.enc))), "")
		second := checkJob(t, e.startFile(GLActualsTemplateID, metaPart(metaFor(c.format, c.enc)), filePart(c.content)), "")
		a, _ := e.srv.Job(first["id"].(string))
		b, _ := e.srv.Job(second["id"].(string))
		if !reflect.DeepEqual(a.Upload, b.Upload) || a.Status != b.Status || a.Message != b.Message {
			t.Errorf("%q as %s %s: spooled %+v (%s), streamed %+v (%s)", c.content, c.format, c.enc, a.Upload, a.Status, b.Upload, b.Status)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "etl-emulator-*")); len(left) != 0 {
		t.Errorf("temp files left behind: %v", left)
	}
}
