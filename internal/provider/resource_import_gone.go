package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// statusNotFound is the status an etl_import records for a job the service
// no longer knows (it answers 404: its job history was purged). It is not a
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
		fmt.Sprintf("The service answers 404 for job %s: it no longer knows the job (its job history may have been purged). "+
			"The data the job imported is still in the model, so the job stays in the Terraform state with status %s, and no new job is started. "+
			"To import the data again with a new job, run: %s. Destroying the resource only removes it from the state.",
			jobID, statusNotFound, replaceCommand))
}

// isGone reports whether the state records a job the service no longer knows.
func isGone(status types.String) bool { return status.ValueString() == statusNotFound }
