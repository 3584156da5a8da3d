package flatfile

import (
	"strings"
	"testing"
)

func TestFormatFromExtension(t *testing.T) {
	for name, want := range map[string]Format{
		"a.csv": FormatCSV, "A.CSV": FormatCSV, "x.psv": FormatPSV, "x.tsv": FormatTDF,
		"x.tdf": FormatTDF, "dir.v1/x.tab": FormatTDF, "x.txt": "", "noext": "",
	} {
		got, ok := FormatFromExtension(name)
		if got != want || ok != (want != "") {
			t.Errorf("FormatFromExtension(%q) = %q, %v", name, got, ok)
		}
	}
}

// TestExtension: each format's extension maps back to it.
func TestExtension(t *testing.T) {
	for _, f := range Formats {
		if got, ok := FormatFromExtension("data." + f.Extension()); !ok || got != f {
			t.Errorf("%s: data.%s maps to %q", f, f.Extension(), got)
		}
	}
	if FormatPSV.Extension() != "psv" || FormatTDF.Extension() != "tsv" || FormatCSV.Extension() != "csv" {
		t.Error("the extensions of the default names changed: data.csv, data.psv, data.tsv")
	}
}

// A target is a format and an encoding the service knows, named by both.
func TestTargetOf(t *testing.T) {
	for _, tc := range []struct {
		format, encoding, key string
		ok                    bool
	}{
		{"CSV", "UTF-8", "CSV/UTF-8", true},
		{"TDF", "UTF-16", "TDF/UTF-16", true},
		{"PSV", "Windows Latin-1", "PSV/Windows Latin-1", true},
		{"XLSX", "UTF-8", "", false},
		{"CSV", "utf-8", "", false},
		{"", "UTF-8", "", false},
	} {
		target, ok := TargetOf(tc.format, tc.encoding)
		if ok != tc.ok || (ok && target.Key() != tc.key) || (!ok && target != FileTarget{}) {
			t.Errorf("TargetOf(%q, %q) = %+v, %v; want key %q, %v", tc.format, tc.encoding, target, ok, tc.key, tc.ok)
		}
	}
}

// The head is checked up to FileCheckLimit, bytes whole; the counter
// counts in the target's format.
func TestFileTarget(t *testing.T) {
	target, _ := TargetOf("CSV", "UTF-8")
	if err := target.Check([]byte("A,B\n1\n")); err == nil || !strings.Contains(err.Error(), "line 2 has 1 field but the header has 2") {
		t.Errorf("Check of a ragged row: %v", err)
	}
	if err := target.Check([]byte("A,B\n1,2\n")); err != nil {
		t.Errorf("Check of good bytes: %v", err)
	}
	if err := target.CheckHead(strings.NewReader("A,B\n1,2,3\n")); err == nil {
		t.Error("CheckHead of a ragged row: no error")
	}
	// A problem past the limit is not seen by the head's check.
	head := "A,B\n" + strings.Repeat("1,2\n", FileCheckLimit/4)
	if err := target.CheckHead(strings.NewReader(head + "1\n")); err != nil {
		t.Errorf("CheckHead saw past its limit: %v", err)
	}
	c, err := target.Counter()
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.Write([]byte("A|B\n1|2\n"))
	if r := c.Result(); r.Rows != 1 || len(r.Columns) != 1 || r.Key != target.Key() {
		t.Errorf("a CSV counter read PSV as %+v", r)
	}
}
