package etl

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
)

// Job is an ETL job. Ids are decimal strings of 18 or 19 digits: never
// numbers. Dates are epoch milliseconds; UpdatedDate may be null.
type Job struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Status      JobStatus `json:"status"`
	ModelID     string    `json:"modelId"`
	ModelName   string    `json:"modelName"`
	CreatedDate int64     `json:"createdDate"`
	UpdatedDate *int64    `json:"updatedDate"`
	UserName    string    `json:"userName"`
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
		kind: kindIdempotent, body: emptyJSONBody(),
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
		if getErr == nil && actionTookEffect(action, job.Status) {
			c.debug(ctx, "etl "+action+" was done by an earlier attempt whose answer was lost", map[string]any{
				"job_id": jobID, "status": string(job.Status), "refused_with": apiErr.StatusCode,
			})
			return job, nil
		}
	}
	return nil, err
}

// actionTookEffect reports whether status s shows that action was done by
// an attempt whose answer was lost: a cancelled job is CANCELLED; a
// submitted job is SUBMITTED or has since ended in COMPLETED or ERROR.
func actionTookEffect(action string, s JobStatus) bool {
	if action == "cancel" {
		return s == StatusCancelled
	}
	return s == StatusSubmitted || s == StatusCompleted || s == StatusError
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
func (c *Client) GetJobStatus(ctx context.Context, jobID string) (JobStatus, error) {
	var out JobStatus
	err := c.call(ctx, request{method: http.MethodGet, path: jobPath(jobID) + "/status", kind: kindRead}, &out)
	return out, err
}
