package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// TestDescribeCounts: the facts' counts, as importjob.DescribeCounts
// words them, a null or unknown count left out.
func TestDescribeCounts(t *testing.T) {
	for _, tc := range []struct {
		f    dataFacts
		want string
	}{
		{dataFacts{RowCount: types.Int64Value(3), SizeBytes: types.Int64Value(120)}, "3 data rows, 120 bytes"},
		{dataFacts{RowCount: types.Int64Value(0), SizeBytes: types.Int64Value(9)}, "0 data rows, 9 bytes"},
		{dataFacts{RowCount: types.Int64Unknown(), SizeBytes: types.Int64Value(9)}, "9 bytes"},
		{dataFacts{RowCount: types.Int64Value(1), SizeBytes: types.Int64Null()}, "1 data row"},
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

// TestInputFileFacts: without a record nothing is counted; an input's
// file is counted in the read that hashed it (hashCache.counted).
func TestInputFileFacts(t *testing.T) {
	body := "Account,Amount\n4000,1\n4010,2\n4020,3\n"
	p := writeFile(t, t.TempDir(), "in.csv", []byte(body))
	null := types.StringNull()
	f := fileModel{Path: types.StringValue(p), Content: null, ContentWO: null, Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: null, PartName: null}
	if got := factsOfFile(f, nil, nil); !got.RowCount.IsUnknown() {
		t.Errorf("no record: %+v, want unknown", got)
	}
	hc := &hashCache{}
	var d diag.Diagnostics
	if _, err := hc.planFileSHA256(t.Context(), f, &d); err != nil {
		t.Fatal(err)
	}
	got := factsOfFile(f, hc.counted, &d)
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

func TestFactsOfRows(t *testing.T) {
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}, {"4010", "2"}}
	l := rowsValue(t, cells(rows[0]...), cells(rows[1]...), cells(rows[2]...))
	_, size := etl.DataUpload{Rows: rows}.SHA256()
	if size != int64(len(rowsBody(t, rows))) {
		t.Fatalf("JSON body size %d, body %d", size, len(rowsBody(t, rows)))
	}
	wantFacts(t, factsOfRows(l, false, etl.MaxDataBodyBytes), []string{"Account", "Amount"}, 2, size)
	// rows_wo: no cell, columns null.
	wantFacts(t, factsOfRows(l, true, etl.MaxDataBodyBytes), nil, 2, size)
	// Over the limit: the CSV file they are sent as.
	wantFacts(t, factsOfRows(l, false, size-1), []string{"Account", "Amount"}, 2, etl.DataUpload{Rows: rows}.CSVSize())
	// Unknown rows: unknown facts, but write-only columns stay null.
	u := factsOfRows(types.ListUnknown(columnsType), true, etl.MaxDataBodyBytes)
	if !u.RowCount.IsUnknown() || !u.SizeBytes.IsUnknown() || !u.Columns.IsNull() {
		t.Errorf("unknown rows_wo: %+v", u)
	}
	if u := factsOfRows(types.ListUnknown(columnsType), false, etl.MaxDataBodyBytes); !u.Columns.IsUnknown() {
		t.Errorf("unknown rows: columns %v, want unknown", u.Columns)
	}
	// A header alone: 0 rows.
	wantFacts(t, factsOfRows(rowsValue(t, cells("A")), false, etl.MaxDataBodyBytes), []string{"A"}, 0, int64(len(rowsBody(t, [][]string{{"A"}}))))
}

func TestFactsOfFile_inline(t *testing.T) {
	var d diag.Diagnostics
	f := fileModel{Path: types.StringNull(), Content: types.StringValue(factsCSV), ContentWO: types.StringNull(),
		Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: types.StringNull(), PartName: types.StringNull()}
	wantFacts(t, factsOfFile(f, nil, &d), []string{"Account", "Amount"}, 3, int64(len(factsCSV)))
	// UTF-16: the encoded bytes (a byte order mark, two bytes a unit).
	f16 := f
	f16.Encoding = types.StringValue("UTF-16")
	wantFacts(t, factsOfFile(f16, nil, &d), []string{"Account", "Amount"}, 3, int64(2+2*len(factsCSV)))
	// content_wo: counted, no cell.
	wo := f
	wo.Content, wo.ContentWO = types.StringNull(), types.StringValue(factsCSV)
	wantFacts(t, factsOfFile(wo, nil, &d), nil, 3, int64(len(factsCSV)))
	// A format not known yet: unknown.
	fu := f
	fu.Format = types.StringUnknown()
	if got := factsOfFile(fu, nil, &d); !got.RowCount.IsUnknown() || !got.Columns.IsUnknown() {
		t.Errorf("unknown format: %+v", got)
	}
	if d.HasError() || d.WarningsCount() > 0 {
		t.Errorf("diagnostics: %v", d)
	}
}

func TestFactsOfFile_path(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte(factsCSV))
	f := fileModel{Path: types.StringValue(p), Content: types.StringNull(), ContentWO: types.StringNull(),
		Format: types.StringNull(), Encoding: types.StringValue("UTF-8"), Name: types.StringNull(), PartName: types.StringNull()}
	var d diag.Diagnostics
	rec, err := readFileRecord(withDefaults(f), &d)
	if err != nil || d.HasError() {
		t.Fatal(err, d)
	}
	wantFacts(t, factsOfFile(withDefaults(f), rec, &d), []string{"Account", "Amount"}, 3, int64(len(factsCSV)))
	// A record without counts (from before they were kept): unknown.
	old := *rec
	old.Counts = nil
	if got := factsOfFile(withDefaults(f), &old, &d); !got.RowCount.IsUnknown() || !got.SizeBytes.IsUnknown() {
		t.Errorf("record without counts: %+v", got)
	}
	// Counts for another format and encoding are not these.
	psv := withDefaults(f)
	psv.Format = types.StringValue("PSV")
	if got := factsOfFile(psv, rec, &d); !got.RowCount.IsUnknown() {
		t.Errorf("counts of another key: %+v", got)
	}
	if got := factsOfFile(fileModel{Path: types.StringUnknown()}, rec, &d); !got.RowCount.IsUnknown() {
		t.Errorf("unknown path: %+v", got)
	}
}

func TestFactsOfCounts_noColumns(t *testing.T) {
	var d diag.Diagnostics
	c := &flatfile.Counts{NoColumns: "the header row's quoting is broken", Rows: 4, Size: 90}
	wantFacts(t, factsOfCounts(c, false, filePath("path"), &d), nil, 4, 90)
	if d.WarningsCount() != 1 {
		t.Errorf("want one warning, got %v", d)
	}
}

func TestPlanDataFacts_inputsAndNone(t *testing.T) {
	var d diag.Diagnostics
	ins := types.MapNull(types.StringType)
	m := importSpec{Inputs: types.MapValueMust(types.StringType, nil), Rows: types.ListNull(columnsType), File: types.ObjectNull(fileAttrTypes)}
	if got := planDataFacts(context.Background(), m, writeOnlyData{rows: types.ListNull(columnsType)}, nil, etl.MaxDataBodyBytes, &d); !got.equal(nullFacts()) {
		t.Errorf("inputs: %+v, want null facts", got)
	}
	m.Inputs = ins
	m.File = types.ObjectUnknown(fileAttrTypes)
	if got := planDataFacts(context.Background(), m, writeOnlyData{rows: types.ListNull(columnsType)}, nil, etl.MaxDataBodyBytes, &d); !got.RowCount.IsUnknown() {
		t.Errorf("unknown file: %+v", got)
	}
}
