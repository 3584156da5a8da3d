package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Update records a change that needs no new job: nothing here starts one.
// The change is recorded, the job submitted when submit was turned on, or
// an imported job adopts its configuration. Its steps: fill what the plan
// left unknown (fillAtApply), read the data the plan could not
// (verifyKeptData), check that the job is still the one planned
// (checkSameJob), read the job (readForUpdate), submit it
// (submitInPlace), wait for it (waitInPlace).
func (r *importResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.gate.pass(ctx, false)
	defer func() { identityFromState(ctx, resp.State, resp.Identity, &resp.Diagnostics) }()
	var plan, state importModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	if !r.fillAtApply(ctx, req.Config, &plan, &resp.Diagnostics) || !r.verifyKeptData(ctx, req.Config, req.Private, state, plan, &resp.Diagnostics) {
		return
	}
	r.checkSameJob(ctx, req.Private, state, plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRehashedKey, nil)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateUnverifiedKey, nil)...)
	job, ok := r.readForUpdate(ctx, &plan, state, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdoptedKey, nil)...)
	if job != nil {
		if job, ok = r.submitInPlace(ctx, state, plan, job, &resp.Diagnostics); !ok {
			return
		}
		plan.setJob(job)
		r.waitInPlace(ctx, &plan, job, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// fillAtApply fills what the plan left unknown, now known: the defaults
// of the files (resolveFile; fillInputs for the inputs'), content_sha256
// and the data's facts. False after an error.
func (r *importResource) fillAtApply(ctx context.Context, cfg tfsdk.Config, plan *importModel, diags *diag.Diagnostics) bool {
	wo, d := readWriteOnly(ctx, cfg)
	diags.Append(d...)
	if !plan.File.IsNull() {
		s := plan.spec()
		_, d := resolveFile(ctx, &s)
		plan.File = s.File
		diags.Append(d...)
	}
	if !plan.Inputs.IsNull() {
		diags.Append(r.fillInputs(ctx, plan, wo)...)
	}
	if plan.ContentSHA256.IsUnknown() {
		sum, d := planContentHash(ctx, plan.spec(), wo, nil, r.tuning.bodyLimit())
		diags.Append(d...)
		plan.ContentSHA256 = sum
	}
	fillFacts(ctx, plan, wo, r.tuning.bodyLimit())
	return !diags.HasError()
}

// checkSameJob checks that the update keeps the job: an imported job's
// template must be the configured one (checkAdoptedTemplate); any other
// job must still be the one planned, the values unknown at plan now known
// (checkUnchangedAtApply).
func (r *importResource) checkSameJob(ctx context.Context, priv privateGetter, state, plan importModel, diags *diag.Diagnostics) {
	if adopting(ctx, state.TemplateID, priv) {
		r.checkAdoptedTemplate(ctx, plan.TemplateID.ValueString(), state, diags)
		return
	}
	checkUnchangedAtApply(ctx, state, plan, rehashed(ctx, priv), diags)
}

// waitInPlace waits, with wait_for_completion, for a job in progress
// (not one in EDITING, which runs only once submitted), within
// timeouts.create, and records it in plan.
func (r *importResource) waitInPlace(ctx context.Context, plan *importModel, job *etl.Job, diags *diag.Diagnostics) {
	if !importjob.WaitInPlace(plan.WaitForCompletion.ValueBool(), job.Status) {
		return
	}
	timeout, d := configuredTimeout(ctx, plan.Timeouts.Object, "create", defaultCreateTimeout, plan.Timeouts.Create)
	diags.Append(d...)
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	plan.setJob(r.wait(wctx, job, timeout, plan.KeepFailed.ValueBool(), diags))
}
