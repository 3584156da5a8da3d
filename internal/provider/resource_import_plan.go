package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// ModifyPlan computes content_sha256 from the file or rows and reports
// file problems on their attribute: as errors for a new object, as
// warnings for one that holds a job (planUnreadable). The plan of a new
// object records what it imports (recordPlannedCreate); that of a live
// object marks it live and plans a replacement when its definition
// changed (planJobChange).
func (r *importResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state importModel // null values for a new object
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	r.heldByState(ctx, state.ID)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRefuseDeleteKey, nil)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateUnverifiedKey, nil)...)
	if req.Plan.Raw.IsNull() {
		// A destroy: its Delete receives this private state, which must
		// not carry the plan of the job's own create.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privatePlannedCreateKey, nil)...)
		warnDestroy(state, &resp.Diagnostics)
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
	// For a live object whose data cannot be read, the plan keeps what its
	// state holds of it: content_sha256 and the steps of its inputs (the
	// data's facts follow, planFacts). Where the configuration names its
	// data in another place than the state (another path, other inputs or
	// rows), the apply of that change in place must read the data, and
	// records it only if it is the job's (verifyKeptData). With no
	// content_sha256 in state (an imported job), it stays unknown, and the
	// apply reads the data likewise.
	if keepPrior && !known(state.ContentSHA256) {
		sum, entries = types.StringUnknown(), nil
	} else if keepPrior {
		sum, entries = state.ContentSHA256, priorSteps
		if !slices.Equal(dataSources(ctx, state), dataSources(ctx, plan)) {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateUnverifiedKey, privateAdoptedValue)...)
		}
	}
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content_sha256"), sum)...)
	plan.ContentSHA256 = sum
	planFacts(ctx, req, plan, state, hc, r.tuning.bodyLimit(), resp)
	planInputFacts(ctx, req, plan, entries, resp)
	saveInputSteps(ctx, entries, resp.Private, &resp.Diagnostics)
	if req.State.Raw.IsNull() {
		r.planModel(ctx, req, plan, resp)
		r.recordPlannedCreate(ctx, plan, req.Private, resp.Private, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privatePlannedCreateKey, nil)...)
	// A replacement says once, at apply, that the old job's data stays
	// (Delete): -replace and a trigger can say it no earlier.
	r.planJobChange(ctx, req, plan, state, priorSteps, entries, resp)
}

// warnDestroy says, in a plan that destroys the job in state (m), what
// becomes of it: its imported data stays in the model, and with
// cancel_on_destroy an unfinished job is cancelled.
func warnDestroy(m importModel, diags *diag.Diagnostics) {
	if !known(m.ID) {
		return
	}
	jobID, status := m.ID.ValueString(), m.Status.ValueString()
	detail := fmt.Sprintf("Destroying this etl_import only removes job %s (status %s) from the Terraform state: the data it imported stays in the model. "+
		"Nothing is deleted from the service.", jobID, status)
	if m.CancelOnDestroy.ValueBool() && !jobstatus.JobStatus(status).Final() {
		detail += fmt.Sprintf(" cancel_on_destroy is true, so if job %s is still unfinished then, it is cancelled.", jobID)
	}
	diags.AddWarning(fmt.Sprintf("Import job %s: its data stays in the model", jobID), detail)
}

// heldByState tells the journal that a state holds job id: the state a
// refresh read, or that of the live object a plan starts from (Terraform
// plans from the state it read).
func (r *importResource) heldByState(ctx context.Context, id types.String) {
	if r.journal != nil && r.client != nil && known(id) {
		logJournal(ctx, r.journal.StateHolds(r.ref(id.ValueString())))
	}
}

// What a change to an existing job does is importjob's rule (PlanChange,
// SubmitInPlace, ChangedAtApply): a new job starts only when what the
// service would import changes. Here the plan and the state are read into
// its facts, and what it decides is written back: the attributes that
// require replacement, the warnings, and at apply the submit.

// planJobChange plans the change of a live object from state (plan holds
// the planned content_sha256): it marks the planned private state live
// (privateLiveKey); an imported job adopting its configuration is checked
// against its template, and replaced if it imported nothing
// (importjob.ReplacesFailed); otherwise importjob.PlanChange decides.
func (r *importResource) planJobChange(ctx context.Context, req resource.ModifyPlanRequest, plan, state importModel, priorSteps []inputEntry, entries []inputEntry, resp *resource.ModifyPlanResponse) {
	// The second plan of its replacement, if any, sees its job.
	setPrivateJSON(ctx, resp.Private, privateLiveKey, state.ID.ValueString(), &resp.Diagnostics)
	if adopting(ctx, state.TemplateID, req.Private) {
		if known(plan.TemplateID) && r.client != nil {
			var diags diag.Diagnostics
			r.checkAdoptedTemplate(ctx, plan.TemplateID.ValueString(), state, &diags)
			resp.Diagnostics.Append(outsideAsWarnings(diags, fmt.Sprintf("The apply fails with this error and adopts nothing until it is fixed; "+
				"job %s stays in the state as it was imported, and terraform destroy works without it.", state.ID.ValueString()))...)
		}
		if !resp.Diagnostics.HasError() && importjob.ReplacesFailed(jobstatus.JobStatus(state.Status.ValueString()), plan.KeepFailed.ValueBool()) {
			planReplaceFailed(ctx, resp)
			warnChange(importjob.WarnFailedReplaced, state, plan, &resp.Diagnostics)
		}
		return
	}
	prior, d := importOf(ctx, state.spec())
	resp.Diagnostics.Append(d...)
	next, d := importOf(ctx, plan.spec())
	resp.Diagnostics.Append(d...)
	c := importjob.Change{Prior: prior, Next: next, SubmitTurnedOn: submitTurnedOn(state, plan),
		Status: jobstatus.JobStatus(state.Status.ValueString()), Gone: isGone(state.Status), KeepFailed: plan.KeepFailed.ValueBool()}
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
				at.String(), next.Text(part), state.ID.ValueString(), prior.Text(part)))
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

// The import as importjob reads it: what defines a job
// (importjob.Import.Definition) is the core's rule; here the framework's
// values are read into it, and its parts named by their attributes.

// valueOf is v as importjob reads it: known (null is a known "") or not.
func valueOf(v types.String) importjob.Value {
	if v.IsUnknown() {
		return importjob.Unknown()
	}
	return importjob.Known(v.ValueString())
}

// importOf is the import s describes, its values as the plan knows them.
func importOf(ctx context.Context, s importSpec) (importjob.Import, diag.Diagnostics) {
	imp := importjob.Import{Template: valueOf(s.TemplateID), Kind: s.kind(), ContentSHA256: valueOf(s.ContentSHA256)}
	switch imp.Kind {
	case importjob.KindRows:
		imp.WriteOnly = s.Rows.IsNull() // rows_wo: never in a plan or state
		return imp, nil
	case importjob.KindInputs:
		return imp, nil
	}
	f, diags := fileFrom(ctx, s.File)
	if f == nil {
		u := importjob.Unknown()
		imp.File = &importjob.File{Path: u, Name: u, PartName: u, Format: u, Encoding: u}
		return imp, diags
	}
	imp.File = &importjob.File{Path: valueOf(f.Path), Name: valueOf(f.Name), PartName: valueOf(f.PartName),
		Inline: f.Path.IsNull(), Format: valueOf(f.Format), Encoding: valueOf(f.Encoding)}
	imp.WriteOnly = f.Path.IsNull() && f.Content.IsNull() // content_wo
	return imp, diags
}

// definition is what defines the job s starts (importjob's rule).
func (s importSpec) definition(ctx context.Context) (importjob.Definition, diag.Diagnostics) {
	imp, diags := importOf(ctx, s)
	return imp.Definition(), diags
}

// partPath is the attribute that holds part of a definition whose data is
// of kind (the kind's own attribute: file, rows or inputs).
func partPath(part importjob.Part, kind string) path.Path {
	switch part {
	case importjob.PartKind:
		return path.Root(kind)
	case importjob.PartTemplate:
		return path.Root("template_id")
	case importjob.PartContent:
		return path.Root("content_sha256")
	case importjob.PartFormat:
		return filePath("format")
	}
	return filePath("encoding")
}

// Where the data goes, before anything is sent: the plan of a new job
// (a create, or a replacement) shows model_id and model_name as the
// template's, read once per plan through the client's cache (the same
// read as the several-steps warning's). They stay unknown when the
// provider is not configured yet or the template cannot be read then (the
// apply reports that). A job keeps the model it was planned with in the
// state of its apply (keepPlannedModel), so the apply never fails after
// the job started because the service reports another; the next refresh
// records what the service says.

// planModel sets the planned model of a new job from its template; a
// template not found is the business of planTemplateGone.
func (r *importResource) planModel(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, resp *resource.ModifyPlanResponse) {
	if r.client == nil || !known(plan.TemplateID) {
		return
	}
	t, err := r.client.CachedTemplate(ctx, plan.TemplateID.ValueString())
	if etl.IsNotFound(err) {
		r.planTemplateGone(ctx, req, plan, err, resp)
	}
	if err != nil || t.ModelID == "" {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("model_id"), t.ModelID)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("model_name"), t.ModelName)...)
}

// keepPlannedModel puts back into plan (the state Create returns) the
// model the plan showed (p's), where it was known and the job reports
// another, with a warning naming both: Terraform would otherwise fail the
// apply ("inconsistent result") after the job started.
func keepPlannedModel(p importModel, plan *importModel, jobID string, diags *diag.Diagnostics) bool {
	if !known(p.ModelID) || plan.ModelID.Equal(p.ModelID) && plan.ModelName.Equal(p.ModelName) {
		return false
	}
	if got := plan.ModelID.ValueString(); got != "" {
		diags.AddAttributeWarning(path.Root("model_id"), fmt.Sprintf("Import job %s reports another model", jobID),
			fmt.Sprintf("The plan showed model %s (%q), the template's; the service reports model %s (%q) for job %s. "+
				"This apply records the planned model; the next refresh records the service's.",
				p.ModelID.ValueString(), p.ModelName.ValueString(), got, plan.ModelName.ValueString(), jobID))
	}
	plan.ModelID, plan.ModelName = p.ModelID, p.ModelName
	return true
}
