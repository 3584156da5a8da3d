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
// send changed; planJobChange adds the other rules of a change.
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
	sum, diags := r.planData(ctx, req, plan, hc)
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
	// Bytes unknown until apply are compared at apply (checkUnchangedAtApply).
	if !sum.IsUnknown() && !sum.Equal(prior) && !adopting(ctx, prior, req.Private) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("content_sha256"))
	}
	r.planJobChange(ctx, req, resp)
}

// planContentHash returns the SHA-256 of the bytes the planned job would
// send, unknown when an input is unknown. wo holds the write-only data. A
// file's hash comes from hc when it can (nil: the file is read).
func planContentHash(ctx context.Context, m importModel, wo writeOnlyData, hc *hashCache) (types.String, diag.Diagnostics) {
	if rows, at := wo.rowsOf(m); !rows.IsNull() {
		return planRowsHash(rows, at)
	}
	f, diags := fileFrom(ctx, m.File)
	if f == nil || diags.HasError() {
		return types.StringUnknown(), diags
	}
	sum, d := planFileHash(ctx, wo.withContent(*f), hc)
	diags.Append(d...)
	return sum, diags
}

// planRowsHash hashes the body the rows are sent as, and warns (on the
// attribute at) when they are sent as a CSV file.
func planRowsHash(l types.List, at path.Path) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	rows, known := rowsFrom(l)
	if !known {
		return types.StringUnknown(), diags
	}
	sum, asFile, size := rowsPayload(rows)
	if asFile {
		diags.AddAttributeWarning(at, rowsAsFileSummary, rowsAsFileDetail(size))
	}
	return types.StringValue(sum), diags
}

// planFileHash hashes the file at path, or the encoded inline content, and
// checks it against its format and encoding.
func planFileHash(ctx context.Context, f fileModel, hc *hashCache) (types.String, diag.Diagnostics) {
	var diags diag.Diagnostics
	content, name := f.inline()
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
	case content.IsUnknown() || f.Encoding.IsUnknown() || content.IsNull():
		return types.StringUnknown(), diags
	}
	b, err := encodeContent(content.ValueString(), etl.Encoding(f.Encoding.ValueString()))
	if err != nil {
		addContentError(&diags, name, err)
		return types.StringUnknown(), diags
	}
	checkContent(f, b, &diags)
	return types.StringValue(hashBytes(b)), diags
}
