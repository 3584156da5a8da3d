package etl

import (
	"io"
	"testing"
)

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

// TestExtension: each format's extension maps back to it.
func TestExtension(t *testing.T) {
	for _, f := range FileFormats {
		if got, ok := FormatFromExtension("data." + f.Extension()); !ok || got != f {
			t.Errorf("%s: data.%s maps to %q", f, f.Extension(), got)
		}
	}
	if FormatPSV.Extension() != "psv" || FormatTDF.Extension() != "tsv" || FormatCSV.Extension() != "csv" {
		t.Error("the extensions of the default names changed: data.csv, data.psv, data.tsv")
	}
}

// TestBytesFile: bytes in memory upload with their size, and each attempt
// reads them whole from the start.
func TestBytesFile(t *testing.T) {
	in := FileInput{PartName: "file", FileFormat: FormatCSV, FileEncoding: EncodingUTF8, FileName: "data.csv"}
	f := BytesFile(in, []byte("A,B\n1,2\n"))
	if f.Input != in || f.Size != 8 {
		t.Fatalf("BytesFile = %+v", f)
	}
	for attempt := range 2 {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(r); err != nil || string(b) != "A,B\n1,2\n" {
			t.Errorf("attempt %d read %q, %v", attempt, b, err)
		}
		_ = r.Close()
	}
}
