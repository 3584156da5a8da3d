package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// ModifyPlan computes content_sha256 from the file or rows and reports
// file problems on their attribute: as errors for a new object, as
// warnings for one that holds a job (planUnreadable). The plan of a new
// object records what it imports (recordPlannedCreate); that of a live
// object marks it live and plans a replacement when its definition
// changed (planJobChange).
func (r *importResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.heldByState(ctx, req.State)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRefuseDeleteKey, nil)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateUnverifiedKey, nil)...)
	if req.Plan.Raw.IsNull() {
		// A destroy: its Delete receives this private state, which must
		// not carry the plan of the job's own create.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privatePlannedCreateKey, nil)...)
		warnDestroy(ctx, req.State, &resp.Diagnostics)
		return
	}
	var plan importModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The framework hands ModifyPlan one private state to read and write:
	// read what the job kept before the plan writes its own.
	hc := newHashCache(r.hashCache)
	priorSteps := inputStepsFrom(ctx, req.Private)
	sum, entries, diags := r.planData(ctx, req, plan, hc)
	diags, keepPrior := r.planUnreadable(ctx, req, plan, diags, resp)
	if keepPrior {
		var unverified bool
		if sum, entries, unverified = keepPriorData(ctx, req, plan, priorSteps); unverified {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateUnverifiedKey, privateAdoptedValue)...)
		}
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), sum)...)
	plan.ContentSHA256 = sum
	planFacts(ctx, req, plan, hc, r.tuning.bodyLimit(), resp)
	planInputFacts(ctx, req, plan, entries, resp)
	saveInputSteps(ctx, entries, resp.Private, &resp.Diagnostics)
	if req.State.Raw.IsNull() {
		r.planModel(ctx, req, plan, resp)
		r.recordPlannedCreate(ctx, plan, req.Private, resp.Private, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privatePlannedCreateKey, nil)...)
	// A replacement says once, at apply, that the old job's data stays
	// (warnReplaced): -replace and a trigger can say it no earlier.
	r.planJobChange(ctx, req, plan, priorSteps, entries, resp)
}

// warnDestroy says, in a plan that destroys the job in state, what
// becomes of it: its imported data stays in the model, and with
// cancel_on_destroy an unfinished job is cancelled.
func warnDestroy(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) {
	var m importModel
	if d := state.Get(ctx, &m); d.HasError() || !known(m.ID) {
		return
	}
	jobID, status := m.ID.ValueString(), m.Status.ValueString()
	detail := fmt.Sprintf("Destroying this etl_import only removes job %s (status %s) from the Terraform state: the data it imported stays in the model. "+
		"Nothing is deleted from the service.", jobID, status)
	if m.CancelOnDestroy.ValueBool() && !etl.JobStatus(status).Final() {
		detail += fmt.Sprintf(" cancel_on_destroy is true, so if job %s is still unfinished then, it is cancelled.", jobID)
	}
	diags.AddWarning(fmt.Sprintf("Import job %s: its data stays in the model", jobID), detail)
}

// heldByState tells the journal that a state holds the job of a live
// object the plan starts from (Terraform plans from the state it read).
func (r *importResource) heldByState(ctx context.Context, state tfsdk.State) {
	var id types.String
	if r.journal == nil || r.client == nil || state.Raw.IsNull() || state.GetAttribute(ctx, path.Root("id"), &id).HasError() || !known(id) {
		return
	}
	logJournal(ctx, r.journal.StateHolds(r.ref(id.ValueString())))
}
