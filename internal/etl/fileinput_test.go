package etl

import (
	"io"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// TestBytesFile: bytes in memory upload with their size, and each attempt
// reads them whole from the start.
func TestBytesFile(t *testing.T) {
	in := FileInput{PartName: "file", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "data.csv"}
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
