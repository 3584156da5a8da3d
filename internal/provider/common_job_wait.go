package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// Polling of wait_for_completion: the first wait, doubled after every poll
// up to the cap. Variables so that tests can shorten them.
var (
	pollInitialInterval = 100 * time.Millisecond
	pollMaxInterval     = 10 * time.Second
)

// waitAndRecord polls the job until it is final (or the timeout), then
// reads it whole into m. Failures are diagnostics naming the job and status.
func (r *jobRunner) waitAndRecord(ctx context.Context, m *importModel, timeout time.Duration, diags *diag.Diagnostics) {
	jobID := m.ID.ValueString()
	last := etl.JobStatus(m.Status.ValueString())
	status, err := waitForJob(ctx, r.client, jobID, last, r.statusSeen(jobID, last))
	if status != "" {
		m.Status = types.StringValue(string(status))
	}
	// Refresh the dates, even after a timeout (with a short context of its own).
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if job, gerr := r.client.GetJob(rctx, jobID); gerr == nil {
		m.setJob(job)
		if err == nil {
			status = job.Status
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError(fmt.Sprintf("Timed out waiting for import job %s", jobID),
			fmt.Sprintf("The job %s was still %s after %s (%s). Raise %[4]s, or set wait_for_completion = false.\n\n%s",
				jobID, m.Status.ValueString(), timeout, r.timeoutSetting(), r.afterFailure()))
	case err != nil:
		diags.AddError(fmt.Sprintf("Waiting for import job %s failed", jobID),
			fmt.Sprintf("Polling the status of job %s (last status %s) failed: %s.%s\n\n%s", jobID, m.Status.ValueString(), err, hintOf(err), r.afterFailure()))
	case status.Failed():
		diags.AddError(fmt.Sprintf("Import job %s ended with status %s", jobID, status),
			fmt.Sprintf("The job %s ended with status %s: the service did not import the data (check the job in the service's ETL job history for the reason, "+
				"such as a missing required column).\n\n%s", jobID, status, r.afterFailure()))
	}
}

// waitForJob polls the job's status with backoff until it is final or ctx
// ends, and returns the last status seen. seen, when not nil, is called
// with every status read.
func waitForJob(ctx context.Context, c *etl.Client, jobID string, last etl.JobStatus, seen func(etl.JobStatus)) (etl.JobStatus, error) {
	interval := pollInitialInterval
	progress := newWaitProgress(jobID)
	for {
		status, err := c.GetJobStatus(ctx, jobID)
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
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return last, ctx.Err()
		case <-t.C:
		}
		interval *= 2
		if interval > pollMaxInterval {
			interval = pollMaxInterval
		}
	}
}
