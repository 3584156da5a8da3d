package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// wait polls the job until it is final (or the timeout), then reads it
// whole, and returns it as last known: as read then, else with the last
// status seen. Failures are diagnostics naming the job and status; a job
// that ended without importing is a warning when keepFailed (ended).
func (r *jobRunner) wait(ctx context.Context, job *etl.Job, timeout time.Duration, keepFailed bool, diags *diag.Diagnostics) *etl.Job {
	last := *job
	status, err := r.client.WaitForJob(ctx, job.ID, job.Status, r.jobWait(ctx, job))
	if status != "" {
		last.Status = status
	}
	// Refresh the dates, even after a timeout (with a short context of its own).
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if got, gerr := r.client.GetJob(rctx, job.ID); gerr == nil {
		last = *got
		if err == nil {
			status = got.Status
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError(fmt.Sprintf("Timed out waiting for import job %s", job.ID),
			fmt.Sprintf("The job %s was still %s after %s (%s). Raise %[4]s, or set wait_for_completion = false.\n\n%s",
				job.ID, last.Status, timeout, r.wording.timeoutSetting, r.wording.afterFailure))
	case err != nil:
		diags.AddError(fmt.Sprintf("Waiting for import job %s failed", job.ID),
			fmt.Sprintf("Polling the status of job %s (last status %s) failed: %s\n\n%s", job.ID, last.Status, explain(err), r.wording.afterFailure))
	case status.Failed():
		r.ended(keepFailed, fmt.Sprintf("Import job %s ended with status %s", job.ID, status),
			fmt.Sprintf("The job %s ended with status %s: the service did not import the data (the reason, such as a missing required column, "+
				"is in the job's details in the service's own application).", job.ID, status), diags)
	}
	return &last
}

// jobWait is how the runner waits for job (etl.Client.WaitForJob): its
// tuning's intervals, a progress message when the status changes
// (statusSeen), and an INFO line every progressEvery while the job is in
// progress (logWaiting).
func (r *jobRunner) jobWait(ctx context.Context, job *etl.Job) etl.JobWait {
	t := r.tuning.orDefaults()
	return etl.JobWait{Initial: t.pollInitial, Max: t.pollMax, Seen: r.statusSeen(job.ID, job.Status), Every: t.progressEvery,
		Waiting: func(s etl.JobStatus, elapsed time.Duration) { logWaiting(ctx, job.ID, s, elapsed) }}
}
