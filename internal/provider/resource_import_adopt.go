package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// An imported job adopts its configuration only when it belongs to the
// configured template_id (importjob.AdoptionMismatch): here the template
// is read, and what the rule finds is an error on template_id.

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
			fmt.Sprintf("The imported job %s can adopt this configuration only once its template is checked: %s", job.ID.ValueString(), explain(err)))
		return false
	}
	imported := importjob.ImportedJob{ID: job.ID.ValueString(), Name: job.Name.ValueString(), ModelID: job.ModelID.ValueString(), ModelName: job.ModelName.ValueString()}
	if problem := importjob.AdoptionMismatch(imported, templateOf(t)); problem != "" {
		addOutsideError(diags, path.Root("template_id"), summaryOtherTemplate, problem)
		return false
	}
	return true
}

// adoptionNote ends the warning of a plan whose imported job jobID cannot
// adopt its configuration.
func adoptionNote(jobID string) string {
	return fmt.Sprintf("The apply fails with this error and adopts nothing until it is fixed; job %s stays in the state as it was imported, "+
		"and terraform destroy works without it.", jobID)
}

// adopting reports whether a change of an attribute whose prior value is
// prior is an imported job adopting its configuration (importjob.Adopting:
// the private flag is set, and the prior value null) rather than a change
// of the job.
func adopting(ctx context.Context, prior attr.Value, priv privateGetter) bool {
	return importjob.Adopting(isAdopted(ctx, priv), !prior.IsNull())
}
