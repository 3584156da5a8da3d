package flatfile

import "testing"

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
