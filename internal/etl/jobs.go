package etl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// Job is an ETL job. Ids are decimal strings of 18 or 19 digits: never
// numbers. Dates are epoch milliseconds; UpdatedDate may be null.
type Job struct {
	ID          string              `json:"id"`
	Name        string              `json:"name"`
	Status      jobstatus.JobStatus `json:"status"`
	ModelID     string              `json:"modelId"`
	ModelName   string              `json:"modelName"`
	CreatedDate int64               `json:"createdDate"`
	UpdatedDate *int64              `json:"updatedDate"`
	UserName    string              `json:"userName"`
}

// jobIDPattern matches a job id: a decimal string of 18 or 19 digits.
var jobIDPattern = regexp.MustCompile(`^[0-9]{18,19}$`)

// ValidJobID reports whether id has the shape of a job id: 18 or 19 digits.
func ValidJobID(id string) bool { return jobIDPattern.MatchString(id) }

// jobPath returns the path of a job below APIPath, the id path-escaped.
func jobPath(jobID string) string { return "/jobs/" + url.PathEscape(jobID) }

// StartWithFile creates a job from the template, uploads the file and starts
// the job, in one request. The file is streamed. The request is retried only
// when the service certainly did not act on it; see JobMaybeCreatedError.
func (c *Client) StartWithFile(ctx context.Context, templateID string, f FileUpload) (*Job, error) {
	body, err := newMultipartBody(f)
	if err != nil {
		return nil, err
	}
	return c.createJob(ctx, templateID, "/startWithFile", body)
}

// StartWithData creates a job from the template with the rows as its data
// and starts it, in one request. The JSON body is limited to 25 MB
// (MaxDataBodyBytes); DataUpload.Size tells the size before sending.
func (c *Client) StartWithData(ctx context.Context, templateID string, d DataUpload) (*Job, error) {
	body, err := newJSONBody(d)
	if err != nil {
		return nil, err
	}
	return c.createJob(ctx, templateID, "/startWithData", body)
}

// CreateJob creates a job from the template without starting it (EDITING).
func (c *Client) CreateJob(ctx context.Context, templateID string) (*Job, error) {
	return c.createJob(ctx, templateID, "/jobs", nil)
}

// createJob posts a request that creates a job to the template's path plus
// suffix, with body b (nil: none), and returns the job the service
// answers; it is retried only as kindCreate allows.
func (c *Client) createJob(ctx context.Context, templateID, suffix string, b *body) (*Job, error) {
	var out Job
	err := c.call(ctx, request{
		method: http.MethodPost, path: templatePath(templateID) + suffix,
		kind: kindCreate, templateID: templateID, body: b,
	}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// UploadJobFile loads a file into one input of a created job. Uploading the
// same file again replaces it, so the request is retried like a read.
func (c *Client) UploadJobFile(ctx context.Context, jobID, inputID string, f FileUpload) error {
	body, err := newMultipartBody(f)
	if err != nil {
		return err
	}
	return c.call(ctx, request{
		method: http.MethodPut, path: jobPath(jobID) + "/inputs/" + url.PathEscape(inputID) + "/file",
		kind: kindIdempotent, body: body,
	}, nil)
}

// SubmitJob submits a created job so that it runs, and returns the job as
// the service answers. It is retried like a read; a retry refused because
// an earlier attempt whose answer was lost already submitted the job
// counts as done (see jobAction).
func (c *Client) SubmitJob(ctx context.Context, jobID string) (*Job, error) {
	return c.jobAction(ctx, jobID, "submit")
}

// CancelJob cancels a job that has not reached a final status, and returns
// the job as the service answers. Retries are handled as for SubmitJob.
func (c *Client) CancelJob(ctx context.Context, jobID string) (*Job, error) {
	return c.jobAction(ctx, jobID, "cancel")
}

// jobAction posts action ("submit" or "cancel") for the job, retried as
// kindIdempotent. When the final answer is a 4xx and an earlier attempt
// had been written in full, it reads the job: if the status shows the
// action done, that attempt did it, and the job is returned instead of the
// error.
func (c *Client) jobAction(ctx context.Context, jobID, action string) (*Job, error) {
	var out Job
	err := c.call(ctx, request{
		method: http.MethodPost, path: jobPath(jobID) + "/" + action,
		kind: kindIdempotent, body: &body{contentType: "application/json", open: func() (io.ReadCloser, error) { return http.NoBody, nil }}, // no bytes, Content-Length 0
	}, &out)
	if err == nil {
		return &out, nil
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.earlierWritten && apiErr.StatusCode >= 400 && apiErr.StatusCode <= 499 {
		// An earlier attempt reached the service and may have done it, then
		// lost its answer: the retry then finds the job past the action and
		// is refused, with whatever 4xx the service uses for that. Ask the
		// job itself rather than trust any particular status code.
		job, getErr := c.GetJob(ctx, jobID)
		took := []jobstatus.JobStatus{jobstatus.StatusSubmitted, jobstatus.StatusCompleted, jobstatus.StatusError} // submitted
		if action == "cancel" {
			took = []jobstatus.JobStatus{jobstatus.StatusCancelled}
		}
		if getErr == nil && slices.Contains(took, job.Status) {
			c.debug(ctx, "etl "+action+" was done by an earlier attempt whose answer was lost", map[string]any{
				"job_id": jobID, "status": string(job.Status), "refused_with": apiErr.StatusCode,
			})
			return job, nil
		}
	}
	return nil, err
}

// GetJob reads a job by id (retried as a read).
func (c *Client) GetJob(ctx context.Context, jobID string) (*Job, error) {
	var out Job
	if err := c.call(ctx, request{method: http.MethodGet, path: jobPath(jobID), kind: kindRead}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetJobStatus reads a job's status alone, from the job's /status
// endpoint (retried as a read).
func (c *Client) GetJobStatus(ctx context.Context, jobID string) (jobstatus.JobStatus, error) {
	var out jobstatus.JobStatus
	err := c.call(ctx, request{method: http.MethodGet, path: jobPath(jobID) + "/status", kind: kindRead}, &out)
	return out, err
}

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
func submitNotNeeded(s jobstatus.JobStatus) bool {
	switch s {
	case jobstatus.StatusSubmitted, jobstatus.StatusRunning, jobstatus.StatusQueued, jobstatus.StatusWaiting, jobstatus.StatusCompleted:
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
func (c *Client) CancelUnfinished(ctx context.Context, jobID string) (jobstatus.JobStatus, error) {
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

// Loading the inputs of a created job (CreateJob): each file into its
// input, in order, and a failed load answered by cancelling the job, so
// that a job short of some of its data never runs.

// loadCancelTimeout bounds cancelling a job after a failed load, which
// runs even when the caller's own time is up.
const loadCancelTimeout = 30 * time.Second

// InputLoad is a file to load into one input of a created job.
type InputLoad struct {
	InputID string
	File    FileUpload
}

// LoadError is a load into a created job that failed (Err, the load
// Index of LoadInputs' loads), and what became of the job: the job as the
// cancel left it (Cancelled), or the cancel's own failure (CancelErr;
// Cancelled is then nil).
type LoadError struct {
	JobID     string
	Index     int
	InputID   string
	Err       error
	Cancelled *Job
	CancelErr error
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("loading input %s of job %s failed: %v", e.InputID, e.JobID, e.Err)
}

// Unwrap returns the load's error.
func (e *LoadError) Unwrap() error { return e.Err }

// LoadInputs loads each of loads into the created job jobID, in their
// order. before, when not nil, is called with a load's index and its file
// before it starts (it may replace the file, such as with its Reporting),
// and the function it returns once it is over. A failed load cancels the
// job, best effort and with time of its own (loadCancelTimeout, even when
// ctx has ended), and is a *LoadError; the loads after it are not tried.
func (c *Client) LoadInputs(ctx context.Context, jobID string, loads []InputLoad, before func(i int, f *FileUpload) (done func())) error {
	for i, l := range loads {
		done := func() {}
		if before != nil {
			done = before(i, &l.File)
		}
		err := c.UploadJobFile(ctx, jobID, l.InputID, l.File)
		done()
		if err != nil {
			return c.abandonLoad(ctx, jobID, i, l.InputID, err)
		}
	}
	return nil
}

// abandonLoad cancels the job whose load i (into inputID) failed with
// err, and returns the *LoadError that says so.
func (c *Client) abandonLoad(ctx context.Context, jobID string, i int, inputID string, err error) *LoadError {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadCancelTimeout)
	defer cancel()
	le := &LoadError{JobID: jobID, Index: i, InputID: inputID, Err: err}
	le.Cancelled, le.CancelErr = c.CancelJob(cctx, jobID)
	if le.CancelErr != nil {
		le.Cancelled = nil
	}
	return le
}
