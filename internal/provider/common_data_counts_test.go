package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// TestDescribeCounts: data rows and bytes, singular and plural, leaving
// out what is not known.
func TestDescribeCounts(t *testing.T) {
	for _, tc := range []struct {
		f    dataFacts
		want string
	}{
		{dataFacts{RowCount: types.Int64Value(3), SizeBytes: types.Int64Value(120)}, "3 data rows, 120 bytes"},
		{dataFacts{RowCount: types.Int64Value(1), SizeBytes: types.Int64Value(1)}, "1 data row, 1 bytes"},
		{dataFacts{RowCount: types.Int64Value(0), SizeBytes: types.Int64Value(9)}, "0 data rows, 9 bytes"},
		{dataFacts{RowCount: types.Int64Unknown(), SizeBytes: types.Int64Value(9)}, "9 bytes"},
		{nullFacts(), ""},
	} {
		if got := describeCounts(tc.f); got != tc.want {
			t.Errorf("describeCounts(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestFactsOfInputRows: an input's rows are sent as a CSV file: its data
// records (an empty row is none) and its size.
func TestFactsOfInputRows(t *testing.T) {
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}, {}, {"4010", "a\nb"}}
	f := factsOfInputRows(rows)
	d := etl.DataUpload{Rows: rows}
	if f.RowCount.ValueInt64() != 2 || f.SizeBytes.ValueInt64() != d.CSVSize() || len(f.Columns.Elements()) != 2 {
		t.Errorf("facts %+v, want 2 rows, %d bytes, 2 columns", f, d.CSVSize())
	}
}

// TestInputFileFacts: without a hash cache nothing is counted; with one,
// an input's file is counted in the read that hashed it.
func TestInputFileFacts(t *testing.T) {
	body := "Account,Amount\n4000,1\n4010,2\n4020,3\n"
	p := writeFile(t, t.TempDir(), "in.csv", []byte(body))
	null := types.StringNull()
	f := fileModel{Path: types.StringValue(p), Content: null, ContentWO: null, Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: null, PartName: null}
	if got := inputFileFacts(f, nil, nil); !got.RowCount.IsUnknown() {
		t.Errorf("no cache: %+v, want unknown", got)
	}
	hc := &hashCache{}
	var d diag.Diagnostics
	if _, err := hc.planFileSHA256(t.Context(), f, &d); err != nil {
		t.Fatal(err)
	}
	got := inputFileFacts(f, hc, &d)
	if got.RowCount.ValueInt64() != 3 || got.SizeBytes.ValueInt64() != int64(len(body)) || len(got.Columns.Elements()) != 2 || d.WarningsCount() != 0 {
		t.Errorf("facts %+v (%v), want 3 rows, %d bytes, 2 columns, no warning", got, d, len(body))
	}
}

// An input whose header row cannot be read plans its row_count and
// size_bytes, columns null, with a warning on the input's file: as the
// top-level file does.
func TestPlanInputEntry_headerCannotBeShown(t *testing.T) {
	body := strings.Repeat("A", 70<<10) + "\n4000\n4010\n" // a header over 64 KiB
	p := writeFile(t, t.TempDir(), "in.csv", []byte(body))
	null := types.StringNull()
	obj, d := types.ObjectValueFrom(t.Context(), fileAttrTypes, fileModel{Path: types.StringValue(p), Content: null, ContentWO: null,
		Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: null, PartName: null})
	if d.HasError() {
		t.Fatal(d)
	}
	in := keyedInput{key: "gl", inputModel: inputModel{File: obj, Rows: types.ListNull(columnsType)}}
	e, d := planInputEntry(t.Context(), in, importjob.Step{InputID: "1", Name: "GL"}, writeOnlyData{}, nil)
	if d.HasError() || e == nil || e.facts == nil {
		t.Fatalf("entry %+v, %v", e, d)
	}
	if !e.facts.Columns.IsNull() || e.facts.SizeBytes.ValueInt64() != int64(len(body)) || e.facts.RowCount.ValueInt64() != 2 {
		t.Errorf("facts %+v", *e.facts)
	}
	d = inInput(in.key, d)
	at := inputPath("gl").AtName("file").AtName("path")
	if d.WarningsCount() != 1 || d.Warnings()[0].Summary() != "The header row cannot be shown" {
		t.Fatalf("want the header warning, got %v", d)
	}
	if wp, ok := d.Warnings()[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(at) {
		t.Errorf("warning not on %s: %v", at, d.Warnings()[0])
	}
}
