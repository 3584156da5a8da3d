package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// wait polls the job until it is final (or the timeout), then reads it
// whole, and returns it as last known: as read then, else with the last
// status seen. Failures are diagnostics naming the job and status.
func (r *jobRunner) wait(ctx context.Context, job *etl.Job, timeout time.Duration, diags *diag.Diagnostics) *etl.Job {
	last := *job
	status, err := r.waitForJob(ctx, job.ID, job.Status, r.statusSeen(job.ID, job.Status))
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
			fmt.Sprintf("Polling the status of job %s (last status %s) failed: %s.%s\n\n%s", job.ID, last.Status, err, hintOf(err), r.wording.afterFailure))
	case status.Failed():
		diags.AddError(fmt.Sprintf("Import job %s ended with status %s", job.ID, status),
			fmt.Sprintf("The job %s ended with status %s: the service did not import the data (check the job in the service's ETL job history for the reason, "+
				"such as a missing required column).\n\n%s", job.ID, status, r.wording.afterEnded))
	}
	return &last
}

// waitForJob polls the job's status with backoff (the runner's tuning)
// until it is final or ctx ends, and returns the last status seen. seen,
// when not nil, is called with every status read.
func (r *jobRunner) waitForJob(ctx context.Context, jobID string, last etl.JobStatus, seen func(etl.JobStatus)) (etl.JobStatus, error) {
	t := r.tuning.orDefaults()
	interval := t.pollInitial
	progress := newWaitProgress(jobID, t.progressEvery)
	for {
		status, err := r.client.GetJobStatus(ctx, jobID)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = status
		if seen != nil {
			seen(status)
		}
		tflog.Trace(ctx, "polled import job", map[string]any{"job_id": jobID, "status": string(status)})
		progress.seen(ctx, status)
		if status.Final() {
			return status, nil
		}
		sleepCtx(ctx, interval)
		if ctx.Err() != nil {
			return last, ctx.Err()
		}
		interval = min(2*interval, t.pollMax)
	}
}

// sleepCtx sleeps for d, or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
