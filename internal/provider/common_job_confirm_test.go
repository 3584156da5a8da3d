package provider

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// A refused submit or cancel is decided by reading the job, whatever the
// 4xx: the emulator's conflicts are answered 409 or 400 alike.
func TestSubmitAndCancelConfirmed(t *testing.T) {
	ctx := context.Background()
	for _, conflict := range []int{http.StatusConflict, http.StatusBadRequest} {
		t.Run(http.StatusText(conflict), func(t *testing.T) {
			e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, ConflictStatus: conflict})
			r := &importResource{jobRunner: jobRunner{client: testClient(t, e)}}
			done := startJob(t, e, emulator.GLActualsTemplateID, glRows)
			e.SetJobStatus(done, emulator.StatusCompleted)

			// A finished job needs no submitting and nothing to cancel.
			job, err := r.submitConfirmed(ctx, done)
			if err != nil || job.Status != etl.StatusCompleted {
				t.Errorf("submit of a finished job: %+v, %v; want the COMPLETED job", job, err)
			}
			if err := r.cancelConfirmed(ctx, done); err != nil {
				t.Errorf("cancel of a finished job: %v", err)
			}
			// A job the service no longer knows: nothing to cancel, and
			// no submitting it.
			gone := startJob(t, e, emulator.HeadcountTemplateID, [][]string{{"Employee", "FTE"}, {"E1", "1"}})
			e.PurgeJob(gone)
			if err := r.cancelConfirmed(ctx, gone); err != nil {
				t.Errorf("cancel of a job gone: %v", err)
			}
			if _, err := r.submitConfirmed(ctx, gone); !etl.IsNotFound(err) {
				t.Errorf("submit of a job gone: %v, want the 404", err)
			}
			if n := e.Requests(emulator.EndpointSubmitJob) + e.Requests(emulator.EndpointCancelJob); n != 4 {
				t.Errorf("%d submit and cancel requests, want 4 (never retried)", n)
			}
		})
	}
}

// A 4xx for a job that still needs the action is a failure: the read job
// says so, not the code.
func TestRefusalOfJobInProgress(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour})
	r := &importResource{jobRunner: jobRunner{client: testClient(t, e)}}
	running := startJob(t, e, emulator.GLActualsTemplateID, glRows)
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointCancelJob, Count: 1, Status: http.StatusBadRequest})
	if err := r.cancelConfirmed(ctx, running); etl.StatusCode(err) != http.StatusBadRequest {
		t.Errorf("cancel refused for a running job: %v, want the 400", err)
	}
	if j, _ := e.Job(running); j.Status != emulator.StatusRunning {
		t.Errorf("job %s, want RUNNING", j.Status)
	}
	// A created job (EDITING) still needs its submit: a 422 fails it.
	c := testClient(t, e)
	created, err := c.CreateJob(ctx, emulator.NoStepTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointSubmitJob, Count: 1, Status: http.StatusUnprocessableEntity})
	if _, err := r.submitConfirmed(ctx, created.ID); etl.StatusCode(err) != http.StatusUnprocessableEntity {
		t.Errorf("submit refused for an EDITING job: %v, want the 422", err)
	}
	// A 5xx is not a refusal: the job is not read.
	reads := e.Requests(emulator.EndpointGetJob)
	e.InjectFault(emulator.Fault{Endpoint: emulator.EndpointSubmitJob, Count: 1, Status: http.StatusInternalServerError})
	if _, err := r.submitConfirmed(ctx, running); etl.StatusCode(err) != http.StatusInternalServerError {
		t.Errorf("submit answered 500: %v", err)
	}
	if n := e.Requests(emulator.EndpointGetJob) - reads; n != 0 {
		t.Errorf("%d job reads after a 500, want 0", n)
	}
}
