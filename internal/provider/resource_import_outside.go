package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// What lies outside an etl_import's configuration: the files of its data
// and its template, which a plan may not be able to read; a job imported
// by its id, which adopts the configuration; and a job the service no
// longer knows (statusNotFound).
//
// When what lies outside the configuration cannot be read at plan (a file
// gone or unreadable, the template deleted): importjob.PlanUnreadable
// decides; here the plan's diagnostics follow it (outsideError), a live
// object keeps the data its state holds, and a replacement records what
// its Delete must refuse.

// holding reports which object plan is the plan of (importjob.Holding),
// with its job: the state's; the replaced job, in the second plan of a
// replacement (privateLiveKey); a tainted object's, by the sources of its data
// that the refresh of the same run read, or by its template's model for
// an imported job that has not adopted its configuration
// (importjob.Refreshed).
func (r *importResource) holding(ctx context.Context, req resource.ModifyPlanRequest, plan importModel) (importjob.Holding, string) {
	if !req.State.Raw.IsNull() {
		var id types.String
		_ = req.State.GetAttribute(ctx, path.Root("id"), &id)
		return importjob.HoldsLive, id.ValueString()
	}
	if live, ok := privateJSON[string](ctx, req.Private, privateLiveKey); ok {
		return importjob.HoldsReplaced, *live
	}
	if job := r.refreshed.JobOf(r.onService(sourceKeys(ctx, plan))); job != "" {
		return importjob.HoldsTainted, job
	}
	if job := r.importedOf(ctx, plan); job != "" {
		return importjob.HoldsTainted, job
	}
	return importjob.HoldsNothing, ""
}

// planUnreadable applies importjob.PlanUnreadable to the diagnostics of
// the plan's data: an outsideError is a warning for an object that holds a
// job. It returns the diagnostics, and whether the plan must keep the
// state's data (ModifyPlan). A replacement's problems go to the planned
// private state, for its Delete (refuseDelete).
func (r *importResource) planUnreadable(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, diags diag.Diagnostics, resp *resource.ModifyPlanResponse) (diag.Diagnostics, bool) {
	problems := outsideErrors(diags)
	if len(problems) == 0 {
		return diags, false
	}
	h, jobID := r.holding(ctx, req, plan)
	u := importjob.PlanUnreadable(h)
	if !u.Warn {
		return diags, false
	}
	if u.RefuseDelete {
		addRefusals(ctx, resp.Private, problems, &resp.Diagnostics)
	}
	return outsideAsWarnings(diags, importjob.UnreadableNote(h, jobID)), u.KeepPrior
}

// planTemplateGone applies importjob.PlanTemplateGone to the plan of a new
// job whose template is not found (err, from reading templateID): the
// replacement of a live object warns, and its Delete refuses.
func (r *importResource) planTemplateGone(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, err error, resp *resource.ModifyPlanResponse) {
	h, jobID := r.holding(ctx, req, plan)
	if !importjob.PlanTemplateGone(h).RefuseDelete {
		return
	}
	templateID := plan.TemplateID.ValueString()
	problem := outsideError{at: path.Root("template_id"), summary: "Template not found",
		detail: fmt.Sprintf("Template %s cannot be read: %s. A new job cannot start from it.", templateID, err)}
	addRefusals(ctx, resp.Private, []outsideError{problem}, &resp.Diagnostics)
	resp.Diagnostics.Append(outsideAsWarnings(diag.Diagnostics{problem}, importjob.UnreadableNote(h, jobID))...)
}

// addRefusals adds problems to those the planned private state p holds for
// the replacement's Delete (refuseDelete).
func addRefusals(ctx context.Context, p privateStore, problems []outsideError, diags *diag.Diagnostics) {
	var refusals []refusal
	if had, ok := privateJSON[[]refusal](ctx, p, privateRefuseDeleteKey); ok {
		refusals = *had
	}
	for _, pr := range problems {
		refusals = append(refusals, refusal{Summary: pr.summary, Detail: pr.detail})
	}
	setPrivateJSON(ctx, p, privateRefuseDeleteKey, refusals, diags)
}

// verifyKeptData, at the apply of a change in place whose plan could not
// read the data it names (privateUnverifiedKey, ModifyPlan), reads it now: it
// must be the data of the job, the planned content_sha256. It reports
// whether the apply may go on; a problem with the data fails it, before
// anything is sent. wo is the configuration's write-only data.
func (r *importResource) verifyKeptData(ctx context.Context, wo writeOnlyData, priv privateStore, state, plan importModel, diags *diag.Diagnostics) bool {
	if v, _ := priv.GetKey(ctx, privateUnverifiedKey); len(v) == 0 {
		return true
	}
	var sum types.String
	var d diag.Diagnostics
	if plan.Inputs.IsNull() {
		sum, d = planContentHash(ctx, plan.spec(), wo, nil, r.tuning.bodyLimit())
	} else {
		sum, _, d = r.planInputsHash(ctx, plan, true, wo, nil)
	}
	diags.Append(d...)
	if diags.HasError() {
		return false
	}
	if !sum.Equal(plan.ContentSHA256) {
		diags.AddError("Change needs a new job",
			fmt.Sprintf("The data the configuration names now is not what import job %s imported (content_sha256 %s, now %s); it could not be read when the plan ran, "+
				"so the plan could not tell and planned a change in place. Nothing was sent, no job was started and the state is unchanged: "+
				"run terraform apply again, and its plan shows the replacement (a new job).", state.ID.ValueString(), plan.ContentSHA256.ValueString(), sum.ValueString()))
		return false
	}
	return true
}

// refusal is a problem a replacement's Delete fails with.
type refusal struct {
	Summary string `json:"summary"`
	Detail  string `json:"detail"`
}

// refuseDelete fails the Delete of a replacement whose plan could not read
// the new job's data (planUnreadable), in importjob.RefusedDelete's words:
// the apply destroys nothing and starts nothing. It reports whether it refused.
func refuseDelete(ctx context.Context, priv privateStore, jobID string, diags *diag.Diagnostics) bool {
	refusals, ok := privateJSON[[]refusal](ctx, priv, privateRefuseDeleteKey)
	if !ok || len(*refusals) == 0 {
		return false
	}
	for _, p := range *refusals {
		diags.AddError(p.Summary, importjob.RefusedDelete(p.Detail, jobID))
	}
	return true
}

// Where the data of an etl_import comes from: the file at file.path, or
// each input's file or rows. A plan that cannot read a file compares them
// with the state's (ModifyPlan); the refreshes of a run remember them
// (importjob.Refreshed).

// dataSources lists where m's data comes from, one entry per file or
// input, in key order: the top-level file's path, each input's file path
// or rows. Inline data and rows outside inputs have no entry: nothing
// outside the configuration is read for them.
func dataSources(ctx context.Context, m importModel) []string {
	var out []string
	if f, _ := fileFrom(ctx, m.File); f != nil && !f.Path.IsNull() {
		out = append(out, "file.path="+f.Path.String())
	}
	ins, _, _ := inputsFrom(ctx, m.Inputs)
	for _, in := range ins {
		if f, _ := fileFrom(ctx, in.File); f != nil {
			out = append(out, "inputs["+in.key+"].file.path="+f.Path.String())
			continue
		}
		out = append(out, "inputs["+in.key+"].rows="+in.Rows.String())
	}
	return out
}

// sourceKeys are the files m reads outside its configuration, each with
// its template: what tells the plan of a tainted object from a new one's.
func sourceKeys(ctx context.Context, m importModel) []string {
	var out []string
	for _, s := range dataSources(ctx, m) {
		if strings.Contains(s, "file.path=") {
			out = append(out, m.TemplateID.String()+" "+s)
		}
	}
	return out
}

// importedOf is the job of an imported object that has not adopted its
// configuration, refreshed in this process, of the model plan's template
// imports into (as the adoption checks it); "" when none, or when the
// template cannot be read.
func (r *importResource) importedOf(ctx context.Context, plan importModel) string {
	if r.client == nil || !known(plan.TemplateID) {
		return ""
	}
	t, err := r.client.CachedTemplate(ctx, plan.TemplateID.ValueString())
	if err != nil || t.ModelID == "" {
		return ""
	}
	return r.refreshed.JobOf(r.onService([]string{importjob.ImportedSource(t.ModelID)}))
}

// onService names sources on the service of the resource's client, as the
// journal names jobs (importjob.JobRef): a process that serves several
// configurations, such as the in-process tests', tells theirs apart.
func (r *importResource) onService(sources []string) []string {
	base := ""
	if r.client != nil {
		base = r.client.BaseURL()
	}
	out := make([]string, len(sources))
	for i, s := range sources {
		out[i] = base + " " + s
	}
	return out
}

// An imported job adopts its configuration only when it belongs to the
// configured template_id (importjob.AdoptionMismatch): here the template
// is read, and what the rule finds is an error on template_id.

const summaryOtherTemplate = "Imported job belongs to another template"

// checkAdoptedTemplate reports, on template_id, an imported job (job: its
// state as read) that does not belong to template templateID, or a
// template that cannot be read: the job may adopt unless it adds an
// error. The job and the template are the service's: the apply fails on
// them, the plan warns (planJobChange), so that destroy works.
func (r *importResource) checkAdoptedTemplate(ctx context.Context, templateID string, job importModel, diags *diag.Diagnostics) {
	t, err := r.client.GetTemplate(ctx, templateID)
	if err != nil {
		addOutsideError(diags, path.Root("template_id"), fmt.Sprintf("Reading template %s failed", templateID),
			fmt.Sprintf("The imported job %s can adopt this configuration only once its template is checked: %s", job.ID.ValueString(), explain(err)))
		return
	}
	imported := importjob.ImportedJob{ID: job.ID.ValueString(), Name: job.Name.ValueString(), ModelID: job.ModelID.ValueString(), ModelName: job.ModelName.ValueString()}
	if problem := importjob.AdoptionMismatch(imported, templateOf(t)); problem != "" {
		addOutsideError(diags, path.Root("template_id"), summaryOtherTemplate, problem)
	}
}

// adopting reports whether a change of an attribute whose prior value is
// prior is an imported job adopting its configuration (importjob.Adopting:
// the private flag is set, and the prior value null) rather than a change
// of the job.
func adopting(ctx context.Context, prior attr.Value, priv privateStore) bool {
	return importjob.Adopting(isAdopted(ctx, priv), !prior.IsNull())
}

// statusNotFound is the status an etl_import records for a job the service
// no longer knows (it answers 404: it no longer keeps the job). It is not a
// status of the service: the provider's own, documented on `status`.
const statusNotFound = "NOT_FOUND"

// statusNotFoundDoc is how the status attribute documents statusNotFound.
const statusNotFoundDoc = "`" + statusNotFound + "` when the service no longer knows the job: the resource stays in the state and no job starts."

// replaceCommand is the command that starts a new job for an etl_import.
// The provider is not told the resource's address: Terraform shows it with
// the diagnostic.
const replaceCommand = "terraform apply -replace=etl_import.<name> (the address Terraform shows with this warning)"

// markGone records in m that the service no longer knows its job, and
// warns: the job stays in state, its data stays in the model.
func markGone(m *importModel, diags *diag.Diagnostics) {
	m.Status = types.StringValue(statusNotFound)
	jobID := m.ID.ValueString()
	diags.AddWarning(fmt.Sprintf("Import job %s no longer found", jobID),
		fmt.Sprintf("The service answers 404 for job %s: it no longer knows the job (the service may no longer keep it). "+
			"The data the job imported is still in the model, so the job stays in the Terraform state with status %s, and no new job is started. "+
			"To import the data again with a new job, run: %s. Destroying the resource only removes it from the state.",
			jobID, statusNotFound, replaceCommand))
}

// isGone reports whether the state records a job the service no longer knows.
func isGone(status types.String) bool { return status.ValueString() == statusNotFound }
