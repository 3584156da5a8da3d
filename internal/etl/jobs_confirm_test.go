package etl

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A refused submit or cancel is decided by reading the job, whatever the
// 4xx: the emulator's conflicts are answered 409 or 400 alike.
func TestSubmitAndCancelConfirmed(t *testing.T) {
	ctx := context.Background()
	for _, conflict := range []int{http.StatusConflict, http.StatusBadRequest} {
		t.Run(http.StatusText(conflict), func(t *testing.T) {
			e, c := startEmulator(t, emulator.Options{RunTime: time.Hour, ConflictStatus: conflict})
			done := startGLJob(t, c, glRows)
			e.SetJobStatus(done, emulator.StatusCompleted)

			// A finished job needs no submitting and nothing to cancel.
			job, err := c.SubmitConfirmed(ctx, done)
			if err != nil || job.Status != StatusCompleted {
				t.Errorf("submit of a finished job: %+v, %v; want the COMPLETED job", job, err)
			}
			if err := c.CancelConfirmed(ctx, done); err != nil {
				t.Errorf("cancel of a finished job: %v", err)
			}
			// A job the service no longer knows: nothing to cancel, and
			// no submitting it.
			gone, err := c.StartWithData(ctx, emulator.HeadcountTemplateID, DataUpload{Rows: [][]string{{"Employee", "FTE"}, {"E1", "1"}}})
			if err != nil {
				t.Fatal(err)
			}
			e.PurgeJob(gone.ID)
			if err := c.CancelConfirmed(ctx, gone.ID); err != nil {
				t.Errorf("cancel of a job gone: %v", err)
			}
			if _, err := c.SubmitConfirmed(ctx, gone.ID); !IsNotFound(err) {
				t.Errorf("submit of a job gone: %v, want the 404", err)
			}
			if n := e.Requests(emulator.EndpointSubmitJob) + e.Requests(emulator.EndpointCancelJob); n != 4 {
				t.Errorf("%d submit and cancel requests, want 4 (never retried)", n)
			}
		})
	}
}

// A refused submit of a job that ended without importing is a
// *JobEndedError that names the job and its status.
func TestSubmitConfirmed_ended(t *testing.T) {
	e, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
	id := startGLJob(t, c, glRows)
	e.SetJobStatus(id, emulator.StatusCancelled)
	_, err := c.SubmitConfirmed(context.Background(), id)
	var ended *JobEndedError
	if !errors.As(err, &ended) || ended.Job.ID != id || ended.Job.Status != StatusCancelled {
		t.Fatalf("submit of a cancelled job: %v, want a *JobEndedError with the job", err)
	}
	if want := "job " + id + " is CANCELLED: it can no longer be submitted, and the service did not import its data"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// A 4xx for a job that still needs the action is a failure: the read job
// says so, not the code.
func TestRefusalOfJobInProgress(t *testing.T) {
	ctx := context.Background()
	e, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
	running := startGLJob(t, c, glRows)
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointCancelJob, Count: 1, Status: http.StatusBadRequest})
	if err := c.CancelConfirmed(ctx, running); StatusCode(err) != http.StatusBadRequest {
		t.Errorf("cancel refused for a running job: %v, want the 400", err)
	}
	if j, _ := e.Job(running); j.Status != emulator.StatusRunning {
		t.Errorf("job %s, want RUNNING", j.Status)
	}
	// A created job (EDITING) still needs its submit: a 422 fails it.
	created, err := c.CreateJob(ctx, emulator.NoStepTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointSubmitJob, Count: 1, Status: http.StatusUnprocessableEntity})
	if _, err := c.SubmitConfirmed(ctx, created.ID); StatusCode(err) != http.StatusUnprocessableEntity {
		t.Errorf("submit refused for an EDITING job: %v, want the 422", err)
	}
	// A 5xx is not a refusal: the job is not read.
	reads := e.Requests(emulator.EndpointGetJob)
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointSubmitJob, Count: 1, Status: http.StatusInternalServerError})
	if _, err := c.SubmitConfirmed(ctx, running); StatusCode(err) != http.StatusInternalServerError {
		t.Errorf("submit answered 500: %v", err)
	}
	if n := e.Requests(emulator.EndpointGetJob) - reads; n != 0 {
		t.Errorf("%d job reads after a 500, want 0", n)
	}
}

// TestSubmitNotNeeded: after a refused submit, a job that runs or
// completed needs none; one that ended without importing, or was never
// submitted, does (the refusal is then a failure).
func TestSubmitNotNeeded(t *testing.T) {
	for _, s := range AllStatuses {
		want := s != StatusEditing && s != StatusNotStarted && !s.Failed()
		if got := submitNotNeeded(s); got != want {
			t.Errorf("submitNotNeeded(%s) = %v, want %v", s, got, want)
		}
	}
	if submitNotNeeded("SOMETHING_NEW") {
		t.Error("a status the service does not document must not count as submitted")
	}
}

// CancelUnfinished cancels a job in progress, leaves a final one and a
// job gone as they are, and says which step failed.
func TestCancelUnfinished(t *testing.T) {
	ctx := context.Background()
	e, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
	running := startGLJob(t, c, glRows)
	e.SetJobStatus(running, emulator.StatusRunning)
	if status, err := c.CancelUnfinished(ctx, running); err != nil || status != StatusRunning {
		t.Errorf("cancel of a running job: %q, %v; want RUNNING before, no error", status, err)
	}
	if j, _ := e.Job(running); j.Status != emulator.StatusCancelled {
		t.Errorf("the emulator has the job %s, want CANCELLED", j.Status)
	}
	done := startGLJob(t, c, glRows)
	e.SetJobStatus(done, emulator.StatusCompleted)
	gone := startGLJob(t, c, glRows)
	e.PurgeJob(gone)
	cancels := e.Requests(emulator.EndpointCancelJob)
	if status, err := c.CancelUnfinished(ctx, done); err != nil || status != StatusCompleted {
		t.Errorf("cancel of a completed job: %q, %v; want COMPLETED, no error", status, err)
	}
	if status, err := c.CancelUnfinished(ctx, gone); err != nil || status != "" {
		t.Errorf("cancel of a job gone: %q, %v; want nothing", status, err)
	}
	if n := e.Requests(emulator.EndpointCancelJob) - cancels; n != 0 {
		t.Errorf("%d cancel requests for a final job and a job gone, want 0", n)
	}

	// The status cannot be read: its error, without a status.
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointGetJobStatus, Status: http.StatusForbidden, Count: 1})
	if status, err := c.CancelUnfinished(ctx, startGLJob(t, c, glRows)); status != "" || StatusCode(err) != http.StatusForbidden {
		t.Errorf("status refused: %q, %v; want no status and the 403", status, err)
	}
	// The cancel is refused: its error, with the status before.
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointCancelJob, Status: http.StatusForbidden, Count: 1})
	id := startGLJob(t, c, glRows)
	e.SetJobStatus(id, emulator.StatusRunning)
	if status, err := c.CancelUnfinished(ctx, id); status != StatusRunning || StatusCode(err) != http.StatusForbidden {
		t.Errorf("cancel refused: %q, %v; want RUNNING and the 403", status, err)
	}
}
