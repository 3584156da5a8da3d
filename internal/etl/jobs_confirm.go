package etl

import (
	"context"
	"fmt"
)

// Submit and cancel are decided by the job, not by the code of a refusal:
// no public source shows what the service answers for a job that cannot
// take the action (409, 400, 422 or a plain 200 are all plausible). After
// any 4xx, the job is read, and its status says whether the refusal
// matters.

// readAfterRefusal returns the job as read now when err is a 4xx answer
// (a refusal), else nil; nil too when the job cannot be read.
func (c *Client) readAfterRefusal(ctx context.Context, jobID string, err error) *Job {
	if code := StatusCode(err); code < 400 || code > 499 {
		return nil
	}
	job, gerr := c.GetJob(ctx, jobID)
	if gerr != nil {
		return nil
	}
	return job
}

// JobEndedError is a submit refused because the job had already ended
// without importing its data.
type JobEndedError struct{ Job *Job }

func (e *JobEndedError) Error() string {
	return fmt.Sprintf("job %s is %s: it can no longer be submitted, and the service did not import its data", e.Job.ID, e.Job.Status)
}

// SubmitConfirmed submits the job. A refusal (any 4xx) of a job that
// needs no submitting (it runs, or completed, before it could be
// submitted: submitNotNeeded) is not a failure: the job as read then is
// returned. A refusal of a job that ended without importing is a
// *JobEndedError.
func (c *Client) SubmitConfirmed(ctx context.Context, jobID string) (*Job, error) {
	job, err := c.SubmitJob(ctx, jobID)
	if err == nil {
		return job, nil
	}
	cur := c.readAfterRefusal(ctx, jobID, err)
	switch {
	case cur != nil && submitNotNeeded(cur.Status):
		c.debug(ctx, "submit refused for a job that needs none; not submitted", map[string]any{
			"job_id": jobID, "status": string(cur.Status), "refused_with": StatusCode(err),
		})
		return cur, nil
	case cur != nil && cur.Status.Failed():
		return nil, &JobEndedError{cur}
	}
	return nil, err
}

// submitNotNeeded reports whether a job found in status s after a refused
// submit needs no submitting: it was submitted, runs, waits or completed.
// One that ended without importing is not: its refusal is a failure.
func submitNotNeeded(s JobStatus) bool {
	switch s {
	case StatusSubmitted, StatusRunning, StatusQueued, StatusWaiting, StatusCompleted:
		return true
	}
	return false
}

// CancelConfirmed cancels the job. A job the service no longer knows, or
// a refusal (any 4xx) of a job already final, leaves nothing to cancel.
func (c *Client) CancelConfirmed(ctx context.Context, jobID string) error {
	_, err := c.CancelJob(ctx, jobID)
	if err == nil || IsNotFound(err) {
		return nil
	}
	if cur := c.readAfterRefusal(ctx, jobID, err); cur != nil && cur.Status.Final() {
		c.debug(ctx, "cancel refused for a job already final; nothing to cancel", map[string]any{
			"job_id": jobID, "status": string(cur.Status), "refused_with": StatusCode(err),
		})
		return nil
	}
	return err
}

// CancelUnfinished cancels the job unless it is final or gone, and
// returns its status before: "" when the service no longer knows it, or
// when reading it failed (then with that error). A job already final is
// left as it is; a failed cancel returns the status and its error.
func (c *Client) CancelUnfinished(ctx context.Context, jobID string) (JobStatus, error) {
	status, err := c.GetJobStatus(ctx, jobID)
	switch {
	case IsNotFound(err):
		return "", nil
	case err != nil:
		return "", err
	case status.Final():
		c.debug(ctx, "import job already final; nothing to cancel", map[string]any{"job_id": jobID, "status": string(status)})
		return status, nil
	}
	if err := c.CancelConfirmed(ctx, jobID); err != nil {
		return status, err
	}
	return status, nil
}
