package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// notSettledWhy says, by reason, why a job an apply cut short left is
// dropped from the journal without being settled (importjob.Reason).
var notSettledWhy = map[importjob.Reason]string{
	importjob.PriorReplaced:  "An earlier apply was cut short while it replaced job %[2]s with job %[1]s. This apply replaces job %[2]s with other data, the data the configuration holds now, so job %[1]s is not resumed.",
	importjob.PriorDestroyed: "An earlier apply was cut short while it replaced job %[2]s with job %[1]s. Job %[2]s is destroyed now, so job %[1]s is not resumed.",
	importjob.MovedOn: "An earlier apply started job %[1]s and was cut short before Terraform recorded it. This etl_import may be the resource it was for: it imported other data since, " +
		"and is now replaced or destroyed, so job %[1]s is not resumed (Terraform never tells a provider which resource an operation is for).",
}

// warnDropped warns of each job dropped from the journal without being
// settled, naming it, why, and the command that adopts it instead.
func warnDropped(drops []importjob.Drop, diags *diag.Diagnostics) {
	for _, d := range drops {
		id, prior := d.Entry.Job.ID(), d.Entry.Prior.ID()
		diags.AddWarning(fmt.Sprintf("Import job %s not resumed: its data stays in the model", id),
			fmt.Sprintf(notSettledWhy[d.Reason], id, prior)+" "+
				fmt.Sprintf("Job %[1]s is removed from the provider's journal of started jobs; nothing is sent to the service, and the data job %[1]s imported, if any, stays in the model. "+
					"To keep job %[1]s in the state instead, adopt it: terraform state rm '<address>' if the resource holds another job, then terraform import '<address>' %[1]s, where <address> is this etl_import's.", id))
	}
}

// addUnsure fails a create that cannot tell which job of the journal it
// should settle: it started none, and says why and what to run.
func addUnsure(u *importjob.UnsureError, diags *diag.Diagnostics) {
	diags.AddError("No import job started: the journal of started jobs cannot say whether it holds this data's job",
		fmt.Sprintf("Checking this create against the provider's journal of started jobs failed: %s. "+
			"An earlier apply may have started a job with this data that the journal holds, so no new job was started: a second one would import the data twice. "+
			"Run terraform apply again; it decides again. If this persists, check that the journal's directory (%s under the configuration's data directory, .terraform) can be read and written.", u, journalDirName))
}
