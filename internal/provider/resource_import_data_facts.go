package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Data facts: what a plan shows of the data an etl_import sends, so that
// a person reviewing it sees more than a hash: the header row's cells
// (columns), the data rows (row_count) and the bytes sent (size_bytes).
// They are computed at plan time from the same bytes content_sha256 is
// (a file's are counted in the read that hashes it, localfile.HashFile),
// and never show a cell of write-only data.

// dataFactsNote ends each description: when a value is known, and where
// it is with inputs.
const dataFactsNote = " Known at plan when the data is; null with `inputs` (each input has its own)."

// dataFactsAttributes are columns, row_count and size_bytes.
func dataFactsAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"columns": schema.ListAttribute{
			MarkdownDescription: "The header row's cells; null for write-only data." + dataFactsNote,
			ElementType:         types.StringType,
			Computed:            true,
		},
		"row_count": schema.Int64Attribute{
			MarkdownDescription: "How many data rows, after the header, the service imports, such as `self.row_count > 0` in a `postcondition`." + dataFactsNote,
			Computed:            true,
		},
		"size_bytes": schema.Int64Attribute{
			MarkdownDescription: "How many bytes are sent: those `content_sha256` hashes." + dataFactsNote,
			Computed:            true,
		},
	}
}

// dataFacts is the columns, row_count and size_bytes of a job's data.
type dataFacts struct {
	Columns   types.List
	RowCount  types.Int64
	SizeBytes types.Int64
}

// nullFacts are the facts of inputs, or of no data.
func nullFacts() dataFacts {
	return dataFacts{Columns: types.ListNull(types.StringType), RowCount: types.Int64Null(), SizeBytes: types.Int64Null()}
}

// unknownFacts are the facts of data unknown until apply; columns null
// when the data is write-only.
func unknownFacts(writeOnly bool) dataFacts {
	f := dataFacts{Columns: types.ListUnknown(types.StringType), RowCount: types.Int64Unknown(), SizeBytes: types.Int64Unknown()}
	if writeOnly {
		f.Columns = types.ListNull(types.StringType)
	}
	return f
}

// factsOf reads the facts of m.
func factsOf(m importModel) dataFacts {
	return dataFacts{Columns: m.Columns, RowCount: m.RowCount, SizeBytes: m.SizeBytes}
}

// setFacts writes f into m.
func (m *importModel) setFacts(f dataFacts) {
	m.Columns, m.RowCount, m.SizeBytes = f.Columns, f.RowCount, f.SizeBytes
}

// stringList is ss as a list of strings.
func stringList(ss []string) types.List {
	vs := make([]attr.Value, len(ss))
	for i, s := range ss {
		vs[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, vs)
}

// factsOfCounts maps the counts of a file's bytes; columns null when the
// data is write-only, or (with a warning on at) when the header row could
// not be read.
func factsOfCounts(c *localfile.Counts, writeOnly bool, at path.Path, diags *diag.Diagnostics) dataFacts {
	f := dataFacts{Columns: types.ListNull(types.StringType), RowCount: types.Int64Value(c.Rows), SizeBytes: types.Int64Value(c.Size)}
	switch {
	case writeOnly:
	case c.Columns == nil:
		diags.AddAttributeWarning(at, "The header row cannot be shown",
			fmt.Sprintf("columns is null in the plan: %s. row_count and size_bytes are known.", c.NoColumns))
	default:
		f.Columns = stringList(c.Columns)
	}
	return f
}

// factsOfRows returns the facts of rows (rows_wo: writeOnly, columns null),
// as they are sent (etl.DataUpload.Payload): the JSON body, or the CSV
// file over limit bytes.
func factsOfRows(l types.List, writeOnly bool, limit int64) dataFacts {
	rows, ok := rowsFrom(l)
	if !ok {
		return unknownFacts(writeOnly)
	}
	d := etl.DataUpload{Rows: rows}
	p := d.Payload(limit)
	size := p.JSONSize
	if p.AsFile {
		size = d.CSVSize()
	}
	f := dataFacts{Columns: types.ListNull(types.StringType), RowCount: types.Int64Value(d.RowCount(p.AsFile)), SizeBytes: types.Int64Value(size)}
	if !writeOnly {
		f.Columns = stringList(d.Columns())
	}
	return f
}

// countBytes counts b, a file in f's format and encoding; nil when they
// are unknown.
func countBytes(f fileModel, b []byte) *localfile.Counts {
	format, enc, ok := checkTarget(f)
	if !ok {
		return nil
	}
	c, err := etl.NewRowCounter(format, enc)
	if err != nil {
		return nil
	}
	_, _ = c.Write(b)
	rows, columns, noColumns, exact := c.Finish()
	return &localfile.Counts{Key: checkKey(f), Columns: columns, NoColumns: noColumns, Rows: rows, Exact: exact, Size: int64(len(b))}
}

// factsOfFile returns the facts of the file block f (its content_wo
// filled in): a file's from rec, the record of its hash (nil or without
// counts: unknown), inline content's counted from its encoded bytes.
func factsOfFile(f fileModel, rec *localfile.Record, diags *diag.Diagnostics) dataFacts {
	content, name := f.inline()
	writeOnly := name == "content_wo"
	switch {
	case f.Path.IsUnknown():
		return unknownFacts(false)
	case !f.Path.IsNull():
		c := rec.CountsFor(checkKey(f))
		if c == nil {
			return unknownFacts(false)
		}
		return factsOfCounts(c, false, filePath("path"), diags)
	case !known(content) || !known(f.Encoding):
		return unknownFacts(writeOnly)
	}
	b, err := encodeContent(content.ValueString(), etl.Encoding(f.Encoding.ValueString()))
	if err != nil {
		return unknownFacts(writeOnly) // the hash reports it
	}
	c := countBytes(withDefaults(f), b)
	if c == nil {
		return unknownFacts(writeOnly)
	}
	return factsOfCounts(c, writeOnly, filePath(name), diags)
}

// planDataFacts returns the facts of the data s sends (wo: its write-only
// data; limit: the largest JSON body of rows); rec is the record of the
// top-level file's hash (nil: none).
func planDataFacts(ctx context.Context, s importSpec, wo writeOnlyData, rec *localfile.Record, limit int64, diags *diag.Diagnostics) dataFacts {
	if !s.Inputs.IsNull() {
		return nullFacts()
	}
	if rows, at := wo.rowsOf(s); !rows.IsNull() {
		return factsOfRows(rows, at.Equal(path.Root("rows_wo")), limit)
	}
	if s.File.IsUnknown() {
		return unknownFacts(false)
	}
	f, _ := fileFrom(ctx, s.File)
	if f == nil {
		return nullFacts()
	}
	return factsOfFile(wo.withContent(*f), rec, diags)
}

// sameData reports whether prior and next define the same, known, import:
// the same bytes read the same way, so the same facts.
func sameData(ctx context.Context, prior, next importModel) bool {
	p, d1 := prior.spec().definition(ctx)
	n, d2 := next.spec().definition(ctx)
	return !d1.HasError() && !d2.HasError() && known(prior.ContentSHA256) && p.Known() && n.Known() && p.String() == n.String()
}

// keepUnchanged returns planned with, for the same data, the state's value
// where the planned one is unknown (an unchanged file not read again, its
// record without counts) or the state's is null (a state from before
// these values existed, not filled at refresh): the plan of unchanged
// data stays empty. A change of the data keeps nothing.
func keepUnchanged(planned, state dataFacts) dataFacts {
	if planned.Columns.IsUnknown() || state.Columns.IsNull() {
		planned.Columns = state.Columns
	}
	if planned.RowCount.IsUnknown() || state.RowCount.IsNull() {
		planned.RowCount = state.RowCount
	}
	if planned.SizeBytes.IsUnknown() || state.SizeBytes.IsNull() {
		planned.SizeBytes = state.SizeBytes
	}
	return planned
}

// planFacts sets the planned facts of plan, whose content_sha256 was just
// planned with hc (the record of the file read, or trusted) and limit.
func planFacts(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, hc *hashCache, limit int64, resp *resource.ModifyPlanResponse) {
	wo, diags := readWriteOnly(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	var rec *localfile.Record
	if hc != nil {
		rec = hc.counted
	}
	f := planDataFacts(ctx, plan.spec(), wo, rec, limit, &resp.Diagnostics)
	if !req.State.Raw.IsNull() {
		var state importModel
		if d := req.State.Get(ctx, &state); !d.HasError() && sameData(ctx, state, plan) {
			f = keepUnchanged(f, factsOf(state))
		}
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("columns"), f.Columns)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("row_count"), f.RowCount)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("size_bytes"), f.SizeBytes)...)
}

// fillFacts, at apply, fills the facts m left unknown at plan from its
// data, now known (a file is read again to count it; rows over limit
// bytes are counted as a CSV file); a value still not known is null.
func fillFacts(ctx context.Context, m *importModel, wo writeOnlyData, limit int64) {
	if !m.Inputs.IsNull() {
		fillInputFacts(ctx, m, wo)
	}
	have := factsOf(*m)
	if !have.Columns.IsUnknown() && !have.RowCount.IsUnknown() && !have.SizeBytes.IsUnknown() {
		return
	}
	var diags diag.Diagnostics // shown at plan already
	var rec *localfile.Record
	if f, _ := fileFrom(ctx, m.File); f != nil && known(f.Path) && m.Inputs.IsNull() {
		rec, _ = readFileRecord(withDefaults(*f), &diags)
	}
	got := planDataFacts(ctx, m.spec(), wo, rec, limit, &diags)
	m.setFacts(dataFacts{
		Columns:   pick(have.Columns, got.Columns, types.ListNull(types.StringType)),
		RowCount:  pick(have.RowCount, got.RowCount, types.Int64Null()),
		SizeBytes: pick(have.SizeBytes, got.SizeBytes, types.Int64Null()),
	})
}

// pick returns planned unless it is unknown, then got unless it is
// unknown too, then none.
func pick[T attr.Value](planned, got, none T) T {
	switch {
	case !planned.IsUnknown():
		return planned
	case !got.IsUnknown():
		return got
	}
	return none
}

// refreshFacts, at a refresh, fills the facts of a state that has none
// (written before they existed) where they are known without reading
// anything: a file's from the record of its hash in private state when
// it has counts and is that of the hash in state, rows and inline content
// from the state (rows over limit bytes counted as a CSV file). Write-only
// data's stay null. It reports whether it filled them.
func refreshFacts(ctx context.Context, m *importModel, priv privateGetter, limit int64) bool {
	have := factsOf(*m)
	if !have.Columns.IsNull() || !have.RowCount.IsNull() || !have.SizeBytes.IsNull() || !known(m.ContentSHA256) || !m.Inputs.IsNull() {
		return false
	}
	var rec *localfile.Record
	if r := recordFrom(ctx, priv); r != nil && r.SHA256 == m.ContentSHA256.ValueString() {
		rec = r
	}
	var diags diag.Diagnostics
	got := planDataFacts(ctx, m.spec(), writeOnlyData{rows: types.ListNull(columnsType), content: types.StringNull()}, rec, limit, &diags)
	if got.RowCount.IsUnknown() || got.RowCount.IsNull() || got.SizeBytes.IsUnknown() || got.Columns.IsUnknown() {
		return false
	}
	m.setFacts(got)
	return true
}

// columnsType is the type of a row: a list of strings.
var columnsType = types.ListType{ElemType: types.StringType}
