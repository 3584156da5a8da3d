package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Planning inputs: keys resolved to the template's input ids, each input
// hashed (and its file checked) as the top-level file is
// (common_inputs_plan.go, which the action shares), and the one
// content_sha256 over them all.

// planData returns the plan's content_sha256 and the plan-time checks of
// the data: the top-level file or rows (with a warning when the template
// has several input steps), or the inputs.
func (r *importResource) planData(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, hc *hashCache) (types.String, []inputEntry, diag.Diagnostics) {
	wo, diags := readWriteOnly(ctx, req.Config)
	if diags.HasError() {
		return types.StringUnknown(), nil, diags
	}
	if plan.Inputs.IsNull() {
		sum, d := planContentHash(ctx, plan.spec(), wo, hc, r.tuning.bodyLimit())
		diags.Append(d...)
		if !diags.HasError() && r.createsJob(ctx, req, plan) {
			r.warnSeveralSteps(ctx, plan, &diags)
		}
		return sum, nil, diags
	}
	var submit, wait types.Bool
	diags.Append(req.Config.GetAttribute(ctx, path.Root("submit"), &submit)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root("wait_for_completion"), &wait)...)
	diags.Append(checkSubmitWithInputs(submit, wait)...)
	sum, entries, d := r.planInputs(ctx, plan, !req.State.Raw.IsNull(), wo, hc)
	diags.Append(d...)
	return sum, entries, diags
}

// createsJob reports whether the plan creates the job, or replaces it for
// another template.
func (r *importResource) createsJob(ctx context.Context, req resource.ModifyPlanRequest, plan importModel) bool {
	if req.State.Raw.IsNull() {
		return true
	}
	var prior types.String
	req.State.GetAttribute(ctx, path.Root("template_id"), &prior)
	return !prior.Equal(plan.TemplateID)
}

// planInputsHash resolves the keys of inputs against the template, hashes
// each input, every file read, and returns content_sha256; unknown when a
// value it needs is. hasState: the job exists, so an unknown hash would
// plan a replacement. wo holds the inputs' write-only content.
func (r *importResource) planInputsHash(ctx context.Context, plan importModel, hasState bool, wo writeOnlyData) (types.String, diag.Diagnostics) {
	sum, _, diags := r.planInputs(ctx, plan, hasState, wo, nil)
	return sum, diags
}

// planInputs is planInputsHash, with the entry of each input it hashed
// (nil when the hash is unknown).
func (r *importResource) planInputs(ctx context.Context, plan importModel, hasState bool, wo writeOnlyData, hc *hashCache) (types.String, []inputEntry, diag.Diagnostics) {
	ins, isKnown, diags := inputsFrom(ctx, plan.Inputs)
	if !isKnown || diags.HasError() || !known(plan.TemplateID) {
		return types.StringUnknown(), nil, diags
	}
	if r.client == nil {
		if hasState {
			diags.AddAttributeError(path.Root("inputs"), "Inputs cannot be resolved",
				"The keys of inputs are resolved against the template's steps at plan time, but the etl provider is not configured during this plan "+
					"(its settings are unknown until apply). Without them this plan could not tell whether the job's data changed, and would start a second job. "+
					"Apply the resources the provider's settings come from first (terraform apply -target=...), or set them from values known at plan time.")
		}
		return types.StringUnknown(), nil, diags
	}
	t, steps, d := r.resolveInputs(ctx, plan.TemplateID.ValueString(), ins)
	diags.Append(d...)
	if diags.HasError() {
		return types.StringUnknown(), nil, diags
	}
	warnStepsNotLoaded(t, steps, &diags)
	entries, d := planInputEntries(ctx, t, steps, ins, wo, hc)
	diags.Append(d...)
	if entries == nil {
		return types.StringUnknown(), nil, diags
	}
	return types.StringValue(inputsHash(entries)), entries, diags
}

// warnSeveralSteps warns when the single file or rows go to a template
// with more than one input step (importjob.Template.SeveralSteps). The lookup is best effort: a template
// that cannot be read is reported by the start itself.
func (r *importResource) warnSeveralSteps(ctx context.Context, plan importModel, diags *diag.Diagnostics) {
	if r.client == nil || !known(plan.TemplateID) {
		return
	}
	t, err := r.client.CachedTemplate(ctx, plan.TemplateID.ValueString())
	if err != nil {
		return
	}
	at, how := "file", "`file` sends its data as one upload"
	if !plan.Rows.IsNull() {
		at, how = "rows", "`rows` are sent as one upload"
	}
	if detail := templateOf(t).SeveralSteps(how); detail != "" {
		diags.AddAttributeWarning(path.Root(at), "Template has several input steps", detail)
	}
}
