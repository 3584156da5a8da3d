package etl

import "testing"

func TestFormatFromExtension(t *testing.T) {
	for name, want := range map[string]FileFormat{
		"a.csv": FormatCSV, "A.CSV": FormatCSV, "x.psv": FormatPSV, "x.tsv": FormatTDF,
		"x.tdf": FormatTDF, "dir.v1/x.tab": FormatTDF, "x.txt": "", "noext": "",
	} {
		got, ok := FormatFromExtension(name)
		if got != want || ok != (want != "") {
			t.Errorf("FormatFromExtension(%q) = %q, %v", name, got, ok)
		}
	}
}
