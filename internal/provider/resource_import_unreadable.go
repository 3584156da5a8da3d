package provider

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// When what lies outside the configuration cannot be read at plan (a file
// gone or unreadable, the template deleted): importjob.PlanUnreadable
// decides; here the plan's diagnostics follow it (outsideError), a live
// object keeps the data its state holds, and a replacement records what
// its Delete must refuse.

// holding reports which object plan is the plan of (importjob.Holding),
// with its job: the state's; the replaced job, in the second plan of a
// replacement (markLive); a tainted object's, by the sources of its data
// that the refresh of the same run read, or by its template's model for
// an imported job that has not adopted its configuration
// (importjob.Refreshed).
func (r *importResource) holding(ctx context.Context, req resource.ModifyPlanRequest, plan importModel) (importjob.Holding, string) {
	var id types.String
	switch {
	case !req.State.Raw.IsNull():
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
// state's data (keepPriorData). A replacement's problems go to the planned
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

// keepPriorData plans, for a live object whose data cannot be read, what
// its state holds of it: content_sha256 and the steps of its inputs (the
// data's facts follow, planFacts). Where the configuration names its data
// in another place than the state (another path, other inputs or rows),
// unverified is true: the apply of that change in place must read the
// data, and records it only if it is the job's (verifyKeptData). With no
// content_sha256 in state (an imported job), it stays unknown, and the
// apply reads the data likewise.
func keepPriorData(ctx context.Context, req resource.ModifyPlanRequest, plan importModel, priorSteps []inputEntry) (sum types.String, entries []inputEntry, unverified bool) {
	var state importModel
	if d := req.State.Get(ctx, &state); d.HasError() || !known(state.ContentSHA256) {
		return types.StringUnknown(), nil, false
	}
	return state.ContentSHA256, priorSteps, !slices.Equal(dataSources(ctx, state), dataSources(ctx, plan))
}

// verifyKeptData, at the apply of a change in place whose plan could not
// read the data it names (keepPriorData: unverified), reads it now: it
// must be the data of the job, the planned content_sha256. It reports
// whether the apply may go on; a problem with the data fails it, before
// anything is sent.
func (r *importResource) verifyKeptData(ctx context.Context, cfg tfsdk.Config, priv privateGetter, state, plan importModel, diags *diag.Diagnostics) bool {
	if v, _ := priv.GetKey(ctx, privateUnverifiedKey); len(v) == 0 {
		return true
	}
	wo, d := readWriteOnly(ctx, cfg)
	diags.Append(d...)
	var sum types.String
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
func refuseDelete(ctx context.Context, priv privateGetter, jobID string, diags *diag.Diagnostics) bool {
	refusals, ok := privateJSON[[]refusal](ctx, priv, privateRefuseDeleteKey)
	if !ok || len(*refusals) == 0 {
		return false
	}
	for _, p := range *refusals {
		diags.AddError(p.Summary, importjob.RefusedDelete(p.Detail, jobID))
	}
	return true
}
