package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// ModifyPlan computes content_sha256 from the file or rows, reports file
// problems on their attribute, and plans a replacement when the bytes to
// send changed.
func (r *importResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan importModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	hc := newHashCache(ctx, r.hashCache, req.Private)
	sum, diags := planContentHash(ctx, plan, hc)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), sum)...)
	hc.keep(ctx, resp.Private, &resp.Diagnostics)
	if req.State.Raw.IsNull() {
		return
	}
	var prior types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("content_sha256"), &prior)...)
	if !sum.Equal(prior) && !adopting(ctx, prior, req.Private) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("content_sha256"))
	}
}

// planContentHash returns the SHA-256 of the bytes the planned job would
// send, unknown when an input is unknown. A file's hash comes from hc when
// it can (nil: the file is read).
func planContentHash(ctx context.Context, m importModel, hc *hashCache) (types.String, diag.Diagnostics) {
	if !m.Rows.IsNull() {
		return planRowsHash(m.Rows)
	}
	f, diags := fileFrom(ctx, m.File)
	if f == nil || diags.HasError() {
		return types.StringUnknown(), diags
	}
	sum, d := planFileHash(ctx, *f, hc)
	diags.Append(d...)
	return sum, diags
}

// planRowsHash hashes the body the rows are sent as, and warns when they
// are sent as a CSV file.
func planRowsHash(l types.List) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	rows, known := rowsFrom(l)
	if !known {
		return types.StringUnknown(), diags
	}
	sum, asFile, size := rowsPayload(rows)
	if asFile {
		diags.AddAttributeWarning(path.Root("rows"), rowsAsFileSummary, rowsAsFileDetail(size))
	}
	return types.StringValue(sum), diags
}

// planFileHash hashes the file at path, or the encoded inline content, and
// checks it against its format and encoding.
func planFileHash(ctx context.Context, f fileModel, hc *hashCache) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	switch {
	case f.Path.IsUnknown():
		return types.StringUnknown(), diags
	case !f.Path.IsNull():
		// Hashed whole, its first fileCheckLimit bytes checked in the same
		// read; or unchanged since a trusted record of its hash.
		sum, err := hc.planFileSHA256(ctx, f, &diags)
		if err != nil {
			addFileError(&diags, err)
			return types.StringUnknown(), diags
		}
		return types.StringValue(sum), diags
	case f.Content.IsUnknown() || f.Encoding.IsUnknown() || f.Content.IsNull():
		return types.StringUnknown(), diags
	}
	b, err := encodeContent(f.Content.ValueString(), etl.Encoding(f.Encoding.ValueString()))
	if err != nil {
		addContentError(&diags, err)
		return types.StringUnknown(), diags
	}
	checkContent(f, b, &diags)
	return types.StringValue(hashBytes(b)), diags
}
