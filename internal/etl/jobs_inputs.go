package etl

import (
	"context"
	"fmt"
	"time"
)

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
