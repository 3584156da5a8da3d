package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// factsCSV has a quoted line break, CR LF line ends and no final line
// break: 3 data rows.
const factsCSV = "Account,Amount\r\n\"40\r\n00\",1\r\n4010,\"2\n3\"\r\n4020,4"

// wantFacts fails t unless f holds columns (nil: null), rows and size.
func wantFacts(t *testing.T, f dataFacts, columns []string, rows, size int64) {
	t.Helper()
	wantCols := types.ListNull(types.StringType)
	if columns != nil {
		wantCols = stringList(columns)
	}
	if !f.Columns.Equal(wantCols) || !f.RowCount.Equal(types.Int64Value(rows)) || !f.SizeBytes.Equal(types.Int64Value(size)) {
		t.Errorf("facts %v %v %v, want %v %d %d", f.Columns, f.RowCount, f.SizeBytes, wantCols, rows, size)
	}
}

// equal reports whether f and o hold the same values.
func (f dataFacts) equal(o dataFacts) bool {
	return f.Columns.Equal(o.Columns) && f.RowCount.Equal(o.RowCount) && f.SizeBytes.Equal(o.SizeBytes)
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
	c := &localfile.Counts{NoColumns: "the header row's quoting is broken", Rows: 4, Size: 90}
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

func TestKeepUnchanged(t *testing.T) {
	known := dataFacts{Columns: stringList([]string{"A"}), RowCount: types.Int64Value(5), SizeBytes: types.Int64Value(9)}
	// Unknown planned values (a trusted record without counts) take the state's.
	if got := keepUnchanged(unknownFacts(false), known); !got.equal(known) {
		t.Errorf("unknown planned: %+v", got)
	}
	// A state from before the values existed stays null: an empty plan.
	if got := keepUnchanged(known, nullFacts()); !got.equal(nullFacts()) {
		t.Errorf("null state: %+v", got)
	}
	// Known planned values win over known state values.
	other := dataFacts{Columns: stringList([]string{"B"}), RowCount: types.Int64Value(6), SizeBytes: types.Int64Value(10)}
	if got := keepUnchanged(other, known); !got.RowCount.Equal(other.RowCount) || !got.Columns.Equal(other.Columns) {
		t.Errorf("known planned: %+v", got)
	}
}

func TestRefreshFacts(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("Account", "Amount"), cells("4000", "1"))
	m := importModel{Rows: rows, File: types.ObjectNull(fileAttrTypes), Inputs: types.MapNull(types.StringType),
		ContentSHA256: types.StringValue(sha256Hex(nil))}
	m.setFacts(nullFacts())
	if !refreshFacts(ctx, &m, fakePrivate{}, etl.MaxDataBodyBytes) {
		t.Fatal("rows in state: not filled")
	}
	wantFacts(t, factsOf(m), []string{"Account", "Amount"}, 1, int64(len(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", "1"}}))))
	if refreshFacts(ctx, &m, fakePrivate{}, etl.MaxDataBodyBytes) {
		t.Error("filled twice")
	}
	// A file: from the private record, when it has counts and the hash in state.
	p := writeFile(t, t.TempDir(), "gl.csv", []byte(factsCSV))
	f := withDefaults(fileModel{Path: types.StringValue(p), Content: types.StringNull(), ContentWO: types.StringNull(),
		Format: types.StringNull(), Encoding: types.StringValue("UTF-8"), Name: types.StringNull(), PartName: types.StringNull()})
	var d diag.Diagnostics
	rec, err := readFileRecord(f, &d)
	if err != nil {
		t.Fatal(err)
	}
	fileObj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	if diags.HasError() {
		t.Fatal(diags)
	}
	priv := fakePrivate{}
	b, _ := json.Marshal(rec)
	priv[privateHashKey] = b
	mf := importModel{Rows: types.ListNull(columnsType), File: fileObj, Inputs: types.MapNull(types.StringType), ContentSHA256: types.StringValue(rec.SHA256)}
	mf.setFacts(nullFacts())
	if !refreshFacts(ctx, &mf, priv, etl.MaxDataBodyBytes) {
		t.Fatal("file with a counted record: not filled")
	}
	wantFacts(t, factsOf(mf), []string{"Account", "Amount"}, 3, int64(len(factsCSV)))
	// Another hash in state: left as it is.
	mf.setFacts(nullFacts())
	mf.ContentSHA256 = types.StringValue(sha256Hex([]byte("other")))
	if refreshFacts(ctx, &mf, priv, etl.MaxDataBodyBytes) {
		t.Error("filled from the record of other bytes")
	}
}
