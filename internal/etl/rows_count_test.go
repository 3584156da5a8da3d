package etl

import (
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// TestDataUploadRowCount: the rows after the header; sent as CSV, a row
// of no cells (an empty line) is not one.
func TestDataUploadRowCount(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"A", "B"}, {"1", "2"}, {}, {""}}}
	if got := d.RowCount(false); got != 3 {
		t.Fatalf("JSON: %d rows, want 3", got)
	}
	if got := d.RowCount(true); got != 2 {
		t.Fatalf("CSV: %d rows, want 2", got)
	}
	if !slices.Equal(d.Columns(), []string{"A", "B"}) {
		t.Fatalf("columns %q", d.Columns())
	}
	for _, e := range []DataUpload{{}, {Rows: [][]string{{"A"}}}} {
		if e.RowCount(true) != 0 || e.RowCount(false) != 0 || e.Columns() == nil {
			t.Fatalf("%v: %d rows, columns %q", e.Rows, e.RowCount(false), e.Columns())
		}
	}
}

// TestDataUploadRowCountMatchesCSVFile: the count for CSV is what the
// counter finds in the CSV file the rows are sent as.
func TestDataUploadRowCountMatchesCSVFile(t *testing.T) {
	d := DataUpload{Rows: [][]string{{"A", "B"}, {"1", "x\ny"}, {}, {""}, {"", ""}}}
	var buf []byte
	for _, row := range d.Rows {
		buf = appendCSVRow(buf, row)
	}
	c, _ := flatfile.NewRowCounter(flatfile.FormatCSV, flatfile.EncodingUTF8)
	_, _ = c.Write(buf)
	got := c.Result()
	if got.Rows != d.RowCount(true) || !slices.Equal(got.Columns, d.Columns()) {
		t.Fatalf("counter %+v, RowCount %d", got, d.RowCount(true))
	}
}
