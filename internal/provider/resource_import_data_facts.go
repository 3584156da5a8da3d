package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Data facts: what a plan shows of the data an etl_import sends, so that
// a person reviewing it sees more than a hash: the header row's cells
// (columns), the data rows (row_count) and the bytes sent (size_bytes).
// They are computed at plan time from the same bytes content_sha256 is
// (a file's are counted in the read that hashes it, localfile.HashFile),
// and never show a cell of write-only data. Below them, the hash cache
// the resource keeps.

// dataFactsNote ends each description: when a value is known, and where
// it is with inputs.
const dataFactsNote = " Known at plan when the data is; null with `inputs` (each input has its own)."

// factsAttributes are columns, row_count and size_bytes, described so.
func factsAttributes(columns, rowCount, sizeBytes string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"columns":    schema.ListAttribute{MarkdownDescription: columns, ElementType: types.StringType, Computed: true},
		"row_count":  schema.Int64Attribute{MarkdownDescription: rowCount, Computed: true},
		"size_bytes": schema.Int64Attribute{MarkdownDescription: sizeBytes, Computed: true},
	}
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
// planned with hc (its record of the file read, or trusted) and limit;
// state is the live object's (null values for a new one).
func planFacts(ctx context.Context, req resource.ModifyPlanRequest, plan, state importModel, hc *hashCache, limit int64, resp *resource.ModifyPlanResponse) {
	wo, diags := readWriteOnly(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	f := planDataFacts(ctx, plan.spec(), wo, hc.counted, limit, &resp.Diagnostics)
	// The same, known, import: the same bytes read the same way, so the
	// same facts.
	p, d1 := state.spec().definition(ctx)
	n, d2 := plan.spec().definition(ctx)
	if !d1.HasError() && !d2.HasError() && known(state.ContentSHA256) && p.Known() && n.Known() && p.String() == n.String() {
		f = keepUnchanged(f, state.dataFacts)
	}
	setPlannedFacts(ctx, resp, path.Empty(), f)
}

// setPlannedFacts sets f in the plan of resp, as the attributes under at
// (the resource's own, or an input's).
func setPlannedFacts(ctx context.Context, resp *resource.ModifyPlanResponse, at path.Path, f dataFacts) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, at.AtName("columns"), f.Columns)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, at.AtName("row_count"), f.RowCount)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, at.AtName("size_bytes"), f.SizeBytes)...)
}

// fillFacts, at apply, fills the facts m left unknown at plan from its
// data, now known (a file is read again to count it; rows over limit
// bytes are counted as a CSV file); a value still not known is null.
func fillFacts(ctx context.Context, m *importModel, wo writeOnlyData, limit int64) {
	if !m.Inputs.IsNull() {
		fillInputFacts(ctx, m, wo)
	}
	if !m.dataFacts.unknownAny() {
		return
	}
	var diags diag.Diagnostics // shown at plan already
	var rec *localfile.Record
	if f, _ := fileFrom(ctx, m.File); f != nil && known(f.Path) && m.Inputs.IsNull() {
		rec, _ = readFileRecord(withDefaults(*f), &diags)
	}
	m.dataFacts = m.dataFacts.fill(planDataFacts(ctx, m.spec(), wo, rec, limit, &diags))
}

// unknownAny reports whether a value of f is unknown: left for the apply
// to fill.
func (f dataFacts) unknownAny() bool {
	return f.Columns.IsUnknown() || f.RowCount.IsUnknown() || f.SizeBytes.IsUnknown()
}

// fill returns f, each value unknown at plan taken from got (the data
// counted now), or null when got's is unknown too.
func (f dataFacts) fill(got dataFacts) dataFacts {
	none := nullFacts()
	return dataFacts{
		Columns:   pick(f.Columns, got.Columns, none.Columns),
		RowCount:  pick(f.RowCount, got.RowCount, none.RowCount),
		SizeBytes: pick(f.SizeBytes, got.SizeBytes, none.SizeBytes),
	}
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
// anything: a file's from the record of its hash in hc when it is trusted
// for the file as it is now, has counts and is that of the hash in state,
// rows and inline content from the state (rows over limit bytes counted
// as a CSV file). Write-only data's stay null. It reports whether it
// filled them.
func refreshFacts(ctx context.Context, m *importModel, hc *hashCache, limit int64) bool {
	have := m.dataFacts
	if !have.Columns.IsNull() || !have.RowCount.IsNull() || !have.SizeBytes.IsNull() || !known(m.ContentSHA256) || !m.Inputs.IsNull() {
		return false
	}
	var rec *localfile.Record
	if r := hc.trustedFor(ctx, m.File); r != nil && r.SHA256 == m.ContentSHA256.ValueString() {
		rec = r
	}
	var diags diag.Diagnostics
	got := planDataFacts(ctx, m.spec(), writeOnlyData{rows: types.ListNull(columnsType), content: types.StringNull()}, rec, limit, &diags)
	if got.RowCount.IsUnknown() || got.RowCount.IsNull() || got.SizeBytes.IsUnknown() || got.Columns.IsUnknown() {
		return false
	}
	m.dataFacts = got
	return true
}

// The hash cache as the resource uses it: one per plan (newHashCache),
// the record of a file sent (in startJob), and the trusted hash of a
// file as it is now (trustedFor, cachedFileSHA256). How a plan uses it:
// hashCache.planFileSHA256.

// newHashCache returns the hash cache of one plan: the user's disk cache
// (localfile.UserDiskCache); off when on is false.
func newHashCache(on bool) *hashCache {
	if !on {
		return &hashCache{}
	}
	return &hashCache{disk: localfile.UserDiskCache()}
}

// cachedFileSHA256 returns the SHA-256 the disk cache holds for the file of
// file (an input's) as it is now, trusted as a plan trusts it; null when
// the cache is off, the file has no path or no trusted record.
func cachedFileSHA256(ctx context.Context, file types.Object, on bool) types.String {
	if r := newHashCache(on).trustedFor(ctx, file); r != nil {
		return types.StringValue(r.SHA256)
	}
	return types.StringNull()
}

// trustedFor returns the trusted record (localfile.DiskCache.Find) of the
// file the file attribute names, as the file is now and checked against
// its format and encoding; nil when it has no known path or no trusted
// record.
func (c *hashCache) trustedFor(ctx context.Context, file types.Object) *localfile.Record {
	f, _ := fileFrom(ctx, file)
	if f == nil || !known(f.Path) {
		return nil
	}
	return c.disk.Find(f.Path.ValueString(), checkKey(*f))
}
