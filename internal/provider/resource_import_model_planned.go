package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

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

// plannedModel is the model a plan showed for a new job.
type plannedModel struct {
	id, name types.String
}

// plannedModelOf is plan's model, before Create learns the job's.
func plannedModelOf(plan importModel) plannedModel {
	return plannedModel{plan.ModelID, plan.ModelName}
}

// keepModelInState, when Create returns with the job in state, keeps there
// the model the plan showed (keepPlannedModel).
func keepModelInState(ctx context.Context, planned plannedModel, plan *importModel, resp *resource.CreateResponse) {
	if !resp.State.Raw.IsNull() && keepPlannedModel(planned, plan, plan.ID.ValueString(), &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("model_id"), plan.ModelID)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("model_name"), plan.ModelName)...)
	}
}

// keepPlannedModel puts back into plan (the state Create returns) the
// model the plan showed, where it was known and the job reports another,
// with a warning naming both: Terraform would otherwise fail the apply
// ("inconsistent result") after the job started.
func keepPlannedModel(p plannedModel, plan *importModel, jobID string, diags *diag.Diagnostics) bool {
	if !known(p.id) || plan.ModelID.Equal(p.id) && plan.ModelName.Equal(p.name) {
		return false
	}
	if got := plan.ModelID.ValueString(); got != "" {
		diags.AddAttributeWarning(path.Root("model_id"), fmt.Sprintf("Import job %s reports another model", jobID),
			fmt.Sprintf("The plan showed model %s (%q), the template's; the service reports model %s (%q) for job %s. "+
				"This apply records the planned model; the next refresh records the service's.",
				p.id.ValueString(), p.name.ValueString(), got, plan.ModelName.ValueString(), jobID))
	}
	plan.ModelID, plan.ModelName = p.id, p.name
	return true
}
