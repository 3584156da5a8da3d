package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Submit and cancel are decided by the job, not by the code of a refusal:
// no public source shows what the service answers for a job that cannot
// take the action (409, 400, 422 or a plain 200 are all plausible). After
// any 4xx, the job is read, and its status says whether the refusal
// matters.

// readAfterRefusal returns the job as read now when err is a 4xx answer
// (a refusal), else nil; nil too when the job cannot be read.
func (r *jobRunner) readAfterRefusal(ctx context.Context, jobID string, err error) *etl.Job {
	if code := etl.StatusCode(err); code < 400 || code > 499 {
		return nil
	}
	job, gerr := r.client.GetJob(ctx, jobID)
	if gerr != nil {
		return nil
	}
	return job
}

// jobEndedError is a submit refused because the job had already ended
// without importing its data.
type jobEndedError struct{ job *etl.Job }

func (e *jobEndedError) Error() string {
	return fmt.Sprintf("job %s is %s: it can no longer be submitted, and the service did not import its data", e.job.ID, e.job.Status)
}

// submitConfirmed submits the job. A refusal (any 4xx) of a job that
// needs no submitting (it runs, or completed, before it could be
// submitted) is not a failure: the job as read then is returned. A refusal
// of a job that ended without importing is a *jobEndedError.
func (r *jobRunner) submitConfirmed(ctx context.Context, jobID string) (*etl.Job, error) {
	job, err := r.client.SubmitJob(ctx, jobID)
	if err == nil {
		return job, nil
	}
	cur := r.readAfterRefusal(ctx, jobID, err)
	switch {
	case cur != nil && importjob.SubmitNotNeeded(cur.Status):
		tflog.Debug(ctx, "submit refused for a job that needs none; not submitted", map[string]any{
			"job_id": jobID, "status": string(cur.Status), "refused_with": etl.StatusCode(err),
		})
		return cur, nil
	case cur != nil && cur.Status.Failed():
		return nil, &jobEndedError{cur}
	}
	return nil, err
}

// cancelConfirmed cancels the job. A job the service no longer knows, or
// a refusal (any 4xx) of a job already final, leaves nothing to cancel.
func (r *jobRunner) cancelConfirmed(ctx context.Context, jobID string) error {
	_, err := r.client.CancelJob(ctx, jobID)
	if err == nil || etl.IsNotFound(err) {
		return nil
	}
	if cur := r.readAfterRefusal(ctx, jobID, err); cur != nil && cur.Status.Final() {
		tflog.Debug(ctx, "cancel refused for a job already final; nothing to cancel", map[string]any{
			"job_id": jobID, "status": string(cur.Status), "refused_with": etl.StatusCode(err),
		})
		return nil
	}
	return err
}
