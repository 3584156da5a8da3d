package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// An imported job adopts its configuration only when it belongs to the
// configured template_id. A job carries no template id: its name (the
// template's name) and model are compared with the template's.

const summaryOtherTemplate = "Imported job belongs to another template"

// checkAdoptedTemplate reports, on template_id, an imported job (job: its
// state as read) that does not belong to template templateID, or a
// template that cannot be read. It returns whether the job may adopt. The
// job and the template are the service's: the apply fails on them, the
// plan warns (adoptionNote), so that destroy works.
func (r *importResource) checkAdoptedTemplate(ctx context.Context, templateID string, job importModel, diags *diag.Diagnostics) bool {
	t, err := r.client.GetTemplate(ctx, templateID)
	if err != nil {
		addOutsideError(diags, path.Root("template_id"), fmt.Sprintf("Reading template %s failed", templateID),
			fmt.Sprintf("The imported job %s can adopt this configuration only once its template is checked: %s.%s", job.ID.ValueString(), err, hintOf(err)))
		return false
	}
	if problem := adoptionMismatch(job, t); problem != "" {
		addOutsideError(diags, path.Root("template_id"), summaryOtherTemplate, problem)
		return false
	}
	return true
}

// adoptionMismatch says how the job (its state as read) differs from the
// template, naming both, or "" when it belongs to it. A name the service
// left empty is not compared.
func adoptionMismatch(job importModel, t *etl.Template) string {
	name, modelID := job.Name.ValueString(), job.ModelID.ValueString()
	if modelID == t.ModelID && (name == "" || name == t.Name) {
		return ""
	}
	return fmt.Sprintf("The imported job %s is %q of model %q (%s), but template_id %s is the template %q of model %q (%s): "+
		"the job was not started from this template. Nothing was changed and no job was started. "+
		"Set template_id to the template the job was started from (a job's name is its template's name), "+
		"or remove the import to start a new job from template %s instead.",
		job.ID.ValueString(), name, job.ModelName.ValueString(), modelID,
		t.ID, t.Name, t.ModelName, t.ModelID, t.ID)
}

// adoptionNote ends the warning of a plan whose imported job jobID cannot
// adopt its configuration.
func adoptionNote(jobID string) string {
	return fmt.Sprintf("The apply fails with this error and adopts nothing until it is fixed; job %s stays in the state as it was imported, "+
		"and terraform destroy works without it.", jobID)
}
