package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// resume settles the claimed job id in place of a new job, as
// importjob.Resume decides from the job as read now: it records the job
// in state, submits it when it was never submitted, and waits for it as
// configured. It returns false when the job ended without importing or is
// gone (then a new job imports the data, and a warning says why).
func (r *importResource) resume(ctx context.Context, plan *importModel, id string, timeout time.Duration, resp *resource.CreateResponse) bool {
	job, err := r.client.GetJob(ctx, id)
	if err != nil && !etl.IsNotFound(err) {
		// Keep the job in state (its details come with the next refresh),
		// so that the next apply resumes it again rather than forget it.
		addRequestError(&resp.Diagnostics, fmt.Sprintf("Reading import job %s to resume it failed", id), err)
		return true
	}
	facts := importjob.Resumed{Gone: err != nil, Submit: plan.Submit.ValueBool(), KeepFailed: plan.KeepFailed.ValueBool()}
	if job != nil {
		facts.Status = job.Status
	}
	d := importjob.Resume(facts)
	if d.StartNew {
		warnNotResumed(id, facts, &resp.Diagnostics)
		return false
	}
	tflog.Info(ctx, "resuming import job an earlier apply left unrecorded", map[string]any{"job_id": id, "status": string(job.Status)})
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.AddAttributeWarning(path.Root("id"), fmt.Sprintf("Resumed import job %s", id),
		fmt.Sprintf("An earlier apply started job %s with this data and was cut short (a timeout, an interruption, a failed request, or a killed process). "+
			"This apply resumed that job (status %s) instead of starting a new one, so the data is imported once. "+
			"To import the data again on purpose, run: %s.", id, job.Status, replaceCommand))
	r.submitAndWait(ctx, plan, job, !d.Submit, timeout, resp)
	return true
}

// warnNotResumed says why the job an earlier apply left is not resumed: it
// is gone, or it ended without importing.
func warnNotResumed(id string, f importjob.Resumed, diags *diag.Diagnostics) {
	if f.Gone {
		diags.AddWarning(fmt.Sprintf("Import job %s no longer found; starting a new job", id),
			fmt.Sprintf("An earlier apply started job %s and was cut short before Terraform recorded it; this apply would have resumed it, but the service no longer knows it. A new job imports the data.", id))
		return
	}
	diags.AddWarning(fmt.Sprintf("Import job %s ended %s; starting a new job", id, f.Status),
		fmt.Sprintf("An earlier apply started job %s and was cut short before Terraform recorded it; the job has since ended with status %s without importing its data, so a new job imports the data.", id, f.Status))
}
