package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// What a change to an existing job does. A new job starts only when what
// the service would import changes: the template, the bytes
// (content_sha256, which covers the inputs loaded), their format or
// encoding, or a switch between file, rows and inputs. Everything else is
// recorded in place, and submit turned on submits the job in place. A
// value unknown at plan time is compared at apply.

// planJobChange plans the change of a live object (plan holds the
// planned content_sha256): it marks the planned private state live
// (markLive); an imported job adopting its configuration is checked
// against its template; a change of the job's definition replaces it,
// except new input ids for the same steps (planDataChange); submit
// turned on is planned (see planSubmit).
func (r *importResource) planJobChange(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, priorSteps []inputEntry, entries []inputEntry, resp *resource.ModifyPlanResponse) {
	var state importModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	markLive(ctx, state.ID.ValueString(), resp.Private, &resp.Diagnostics)
	if adopting(ctx, state.TemplateID, req.Private) {
		if known(plan.TemplateID) && r.client != nil {
			r.checkAdoptedTemplate(ctx, plan.TemplateID.ValueString(), state, &resp.Diagnostics)
		}
		return
	}
	prior, d := state.spec().definition(ctx)
	resp.Diagnostics.Append(d...)
	next, d := plan.spec().definition(ctx)
	resp.Diagnostics.Append(d...)
	for _, at := range changedParts(prior, next) {
		if at.Equal(path.Root("content_sha256")) {
			r.planDataChange(ctx, priorSteps, plan, state.ContentSHA256, entries, resp)
			continue
		}
		resp.RequiresReplace = append(resp.RequiresReplace, at)
	}
	planSubmit(state, plan, resp)
}

// submitTurnedOn reports whether submit goes from false to true (not
// while adopting: the prior value is then null).
func submitTurnedOn(state, plan importModel) bool {
	return state.Submit.Equal(types.BoolValue(false)) && plan.Submit.ValueBool()
}

// planSubmit plans submit turned on, by what the job has been through,
// not only its status now. A job that was submitted (wasSubmitted) needs
// nothing sent: the change is recorded in place. A job never submitted
// that can no longer be (CANCELLED, EXPIRED) is replaced, and a warning
// says why. Any other job is submitted in place by Update. A job the
// service no longer knows is left as it is, with a warning.
func planSubmit(state, plan importModel, resp *resource.ModifyPlanResponse) {
	if !submitTurnedOn(state, plan) {
		return
	}
	jobID, status := state.ID.ValueString(), etl.JobStatus(state.Status.ValueString())
	switch {
	case isGone(state.Status):
		resp.Diagnostics.AddAttributeWarning(path.Root("submit"), fmt.Sprintf("Import job %s cannot be submitted", jobID),
			fmt.Sprintf("The service no longer knows job %s (status %s), so it cannot be submitted: submit = true is recorded and nothing is sent. "+
				"To import the data again with a new job, run: %s.", jobID, statusNotFound, replaceCommand))
	case endedUnsubmitted(status):
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("submit"))
		resp.Diagnostics.AddAttributeWarning(path.Root("submit"), fmt.Sprintf("Turning submit on replaces import job %s", jobID),
			fmt.Sprintf("Job %s is %s: it was never submitted and can no longer be, and it ended without importing its data. "+
				"Turning submit on therefore plans its replacement: a new job that imports the data.", jobID, status))
	}
}

// checkUnchangedAtApply: a change planned in place must not change what
// the job imported. A value unknown at plan time could not be compared
// then (the plan did not replace the job for it). Terraform plans again at
// apply, with the value known: a difference then changes the planned
// action, which Terraform refuses ("Provider produced inconsistent final
// plan"). This check holds where that re-plan did not see the difference:
// a difference fails the apply before anything is sent, and the next plan
// shows the replacement.
func checkUnchangedAtApply(ctx context.Context, state, plan importModel, rehashed bool, diags *diag.Diagnostics) {
	prior, d := state.spec().definition(ctx)
	diags.Append(d...)
	next, d := plan.spec().definition(ctx)
	diags.Append(d...)
	pp := prior.parts()
	for i, n := range next.parts() {
		p := pp[i]
		if rehashed && n.at.Equal(path.Root("content_sha256")) {
			continue // the plan found the same data under new input ids
		}
		if known(p.value) && known(n.value) && p.value.ValueString() != n.value.ValueString() {
			diags.AddAttributeError(n.at, "Change needs a new job",
				fmt.Sprintf("%s is %q at apply, but job %s was started with %q. It was unknown at plan time, so the plan could not tell and planned an update in place. "+
					"Nothing was sent, no job was started and the state is unchanged: run terraform apply again, and its plan shows the replacement (a new job).",
					attrName(n.at), n.value.ValueString(), state.ID.ValueString(), p.value.ValueString()))
		}
	}
}

// submitInPlace submits the existing job when submit was turned on, and
// returns the job as it is then (job itself when nothing was sent). A job
// that has been through a submit is left as it is; one that ended without
// ever being submitted fails the apply, naming it. False after a failure.
func (r *importResource) submitInPlace(ctx context.Context, state, plan importModel, job *etl.Job, diags *diag.Diagnostics) (*etl.Job, bool) {
	if !submitTurnedOn(state, plan) {
		return job, true
	}
	if wasSubmitted(job.Status) {
		tflog.Debug(ctx, "submit turned on for a job that was submitted; nothing sent", map[string]any{"job_id": job.ID, "status": string(job.Status)})
		return job, true
	}
	submitted, err := r.submitNow(ctx, job)
	if err != nil {
		diags.AddError(fmt.Sprintf("Submitting import job %s failed", job.ID),
			fmt.Sprintf("submit was turned on for job %s, and submitting it failed: %s.%s "+
				"No job was started, and the state keeps submit = false: run terraform apply again, and its plan says what it does with the job.", job.ID, err, hintOf(err)))
		return job, false
	}
	return submitted, true
}

// submitNow submits job, which Update read just now; a job that ended
// without ever being submitted is a *jobEndedError without a request.
func (r *importResource) submitNow(ctx context.Context, job *etl.Job) (*etl.Job, error) {
	if endedUnsubmitted(job.Status) {
		return nil, &jobEndedError{job}
	}
	return r.submitConfirmed(ctx, job.ID)
}

// readForUpdate reads the job into plan. A job the service no longer
// knows is recorded as gone (nil job, with a warning): an in-place change
// of it is still recorded. False after any other failure.
func (r *importResource) readForUpdate(ctx context.Context, plan *importModel, state importModel, diags *diag.Diagnostics) (*etl.Job, bool) {
	jobID := plan.ID.ValueString()
	job, err := r.client.GetJob(ctx, jobID)
	switch {
	case etl.IsNotFound(err):
		plan.UpdatedDate = state.UpdatedDate
		markGone(plan, diags)
		return nil, true
	case err != nil:
		addRequestError(diags, fmt.Sprintf("Reading import job %s failed", jobID), err)
		return nil, false
	}
	plan.setJob(job)
	return job, true
}
