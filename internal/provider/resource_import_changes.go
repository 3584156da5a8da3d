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
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// What a change to an existing job does is importjob's rule (PlanChange,
// SubmitInPlace, ChangedAtApply): a new job starts only when what the
// service would import changes. Here the plan and the state are read into
// its facts, and what it decides is written back: the attributes that
// require replacement, the warnings, and at apply the submit.

// planJobChange plans the change of a live object (plan holds the
// planned content_sha256): it marks the planned private state live
// (markLive); an imported job adopting its configuration is checked
// against its template, and replaced if it imported nothing
// (importjob.ReplacesFailed); otherwise importjob.PlanChange decides.
func (r *importResource) planJobChange(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, priorSteps []inputEntry, entries []inputEntry, resp *resource.ModifyPlanResponse) {
	var state importModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	markLive(ctx, state.ID.ValueString(), resp.Private, &resp.Diagnostics)
	if adopting(ctx, state.TemplateID, req.Private) {
		if known(plan.TemplateID) && r.client != nil {
			var diags diag.Diagnostics
			r.checkAdoptedTemplate(ctx, plan.TemplateID.ValueString(), state, &diags)
			resp.Diagnostics.Append(outsideAsWarnings(diags, adoptionNote(state.ID.ValueString()))...)
		}
		if !resp.Diagnostics.HasError() && importjob.ReplacesFailed(etl.JobStatus(state.Status.ValueString()), plan.KeepFailed.ValueBool()) {
			planReplaceFailed(ctx, resp)
			warnChange(importjob.WarnFailedReplaced, state, plan, &resp.Diagnostics)
		}
		return
	}
	c, d := changeOf(ctx, state, plan)
	resp.Diagnostics.Append(d...)
	c.NewInputIDsOnly = importjob.SameStepsNewIDs(inputsOf(priorSteps), inputsOf(entries), state.ContentSHA256.ValueString())
	p := importjob.PlanChange(c)
	for _, part := range p.Replace {
		resp.RequiresReplace = append(resp.RequiresReplace, partPath(part, c.Next.Kind))
	}
	if p.ReplaceForSubmit {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("submit"))
	}
	if p.ReplaceFailed {
		planReplaceFailed(ctx, resp)
	}
	if p.Rehash {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRehashedKey, privateAdoptedValue)...)
	}
	for _, w := range p.Warnings {
		warnChange(w, state, plan, &resp.Diagnostics)
	}
}

// planReplaceFailed plans the replacement of a job that imported nothing
// (importjob.ReplacesFailed): its status, known in state, is planned
// unknown, which Terraform and OpenTofu show as what forces the
// replacement (they replace only for a path whose value changes:
// plan() in internal/terraform/node_resource_abstract_instance.go, and
// OpenTofu's internal/tofu file of the same name).
func planReplaceFailed(ctx context.Context, resp *resource.ModifyPlanResponse) {
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("status"))
}

// changeOf reads the change from state to plan into importjob's facts.
func changeOf(ctx context.Context, state, plan importModel) (importjob.Change, diag.Diagnostics) {
	prior, diags := importOf(ctx, state.spec())
	next, d := importOf(ctx, plan.spec())
	diags.Append(d...)
	return importjob.Change{Prior: prior, Next: next, SubmitTurnedOn: submitTurnedOn(state, plan),
		Status: etl.JobStatus(state.Status.ValueString()), Gone: isGone(state.Status), KeepFailed: plan.KeepFailed.ValueBool()}, diags
}

// warnChange says warning w of a plan of the job in state, in
// importjob.Warning.Words, on its attribute. (A job the service no longer
// knows has the status statusNotFound in state.)
func warnChange(w importjob.Warning, state, plan importModel, diags *diag.Diagnostics) {
	at, summary, detail := w.Words(state.ID.ValueString(), state.Status.ValueString(), plan.TemplateID.ValueString(), replaceCommand)
	diags.AddAttributeWarning(path.Root(at), summary, detail)
}

// submitTurnedOn reports whether submit goes from false to true (not
// while adopting: the prior value is then null).
func submitTurnedOn(state, plan importModel) bool {
	return state.Submit.Equal(types.BoolValue(false)) && plan.Submit.ValueBool()
}

// checkUnchangedAtApply: a change planned in place must not change what
// the job imported. A value unknown at plan time could not be compared
// then (the plan did not replace the job for it). Terraform plans again at
// apply, with the value known: a difference then changes the planned
// action, which Terraform refuses ("Provider produced inconsistent final
// plan"). This check holds where that re-plan did not see the difference
// (importjob.ChangedAtApply): a difference fails the apply before anything
// is sent, and the next plan shows the replacement.
func checkUnchangedAtApply(ctx context.Context, state, plan importModel, rehashed bool, diags *diag.Diagnostics) {
	prior, d := state.spec().definition(ctx)
	diags.Append(d...)
	next, d := plan.spec().definition(ctx)
	diags.Append(d...)
	for _, part := range importjob.ChangedAtApply(prior, next, rehashed) {
		at := partPath(part, next.Kind)
		diags.AddAttributeError(at, "Change needs a new job",
			fmt.Sprintf("%s is %q at apply, but job %s was started with %q. It was unknown at plan time, so the plan could not tell and planned an update in place. "+
				"Nothing was sent, no job was started and the state is unchanged: run terraform apply again, and its plan shows the replacement (a new job).",
				attrName(at), next.Text(part), state.ID.ValueString(), prior.Text(part)))
	}
}

// submitInPlace submits the existing job when submit was turned on, as
// importjob.SubmitInPlace decides, and returns the job as it is then (job
// itself when nothing was sent). A job that ended without ever being
// submitted fails the apply, naming it. False after a failure.
func (r *importResource) submitInPlace(ctx context.Context, state, plan importModel, job *etl.Job, diags *diag.Diagnostics) (*etl.Job, bool) {
	var err error
	switch importjob.SubmitInPlace(submitTurnedOn(state, plan), job.Status) {
	case importjob.SubmitNothing:
		tflog.Debug(ctx, "no submit to send", map[string]any{"job_id": job.ID, "status": string(job.Status)})
		return job, true
	case importjob.SubmitFails:
		err = &etl.JobEndedError{Job: job}
	default:
		var submitted *etl.Job
		if submitted, err = r.client.SubmitConfirmed(ctx, job.ID); err == nil {
			return submitted, true
		}
	}
	diags.AddError(fmt.Sprintf("Submitting import job %s failed", job.ID),
		fmt.Sprintf("submit was turned on for job %s, and submitting it failed: %s "+
			"No job was started, and the state keeps submit = false: run terraform apply again, and its plan says what it does with the job.", job.ID, explain(err)))
	return job, false
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
