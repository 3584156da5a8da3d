package etl_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

type jobAction struct {
	name     string
	endpoint emulator.Endpoint
	call     func(*etl.Client, context.Context, string) (*etl.Job, error)
	done     etl.JobStatus // the status the action leads to
}

var jobActions = []jobAction{
	{"submit", emulator.EndpointSubmitJob, (*etl.Client).SubmitJob, etl.StatusSubmitted},
	{"cancel", emulator.EndpointCancelJob, (*etl.Client).CancelJob, etl.StatusCancelled},
}

// editingJob creates a job with its data loaded, not yet submitted.
func editingJob(t *testing.T, srv *emulator.Server, c *etl.Client) string {
	t.Helper()
	ctx := context.Background()
	job, err := c.CreateJob(ctx, emulator.GLActualsTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("Account,Amount\n4000,1\n")
	if err := c.UploadJobFile(ctx, job.ID, emulator.GLActualsInputID, fileOf(content, etl.FormatCSV, etl.EncodingUTF8, "gl.csv")); err != nil {
		t.Fatal(err)
	}
	if j, _ := srv.Job(job.ID); j.Status != string(etl.StatusEditing) {
		t.Fatalf("job status %s", j.Status)
	}
	return job.ID
}

// TestJobActionRecoveryReadsTheJob: the first answer of a submit or cancel
// is lost after the service acted, and the retry is refused with a 400 (not
// a 409): the client reads the job, sees the action done, and succeeds.
func TestJobActionRecoveryReadsTheJob(t *testing.T) {
	for _, a := range jobActions {
		t.Run(a.name, func(t *testing.T) {
			srv, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
			id := editingJob(t, srv, c)
			srv.InjectFault(emulator.Fault{Endpoint: a.endpoint, Count: 1, DropAfterHandling: true})
			srv.InjectFault(emulator.Fault{Endpoint: a.endpoint, Count: 1, Status: http.StatusBadRequest})
			gets := srv.Requests(emulator.EndpointGetJob)

			job, err := a.call(c, context.Background(), id)
			if err != nil {
				t.Fatalf("%s: %v", a.name, err)
			}
			if job.ID != id || job.Status != a.done {
				t.Fatalf("job %+v, want %s", job, a.done)
			}
			if n := srv.Requests(a.endpoint); n != 2 {
				t.Fatalf("%d %s requests, want 2", n, a.name)
			}
			if srv.Requests(emulator.EndpointGetJob) != gets+1 {
				t.Fatal("the job was not read to confirm the action")
			}
			if j, _ := srv.Job(id); j.Status != string(a.done) {
				t.Fatalf("emulator holds the job as %s", j.Status)
			}
			if jobs, _ := srv.Stats(); jobs != 1 {
				t.Fatalf("%d jobs", jobs)
			}
		})
	}
}

// TestJobActionRefusalStandsWhenTheJobDisagrees: the first attempt is
// written but not acted on (503), the retry is refused with a 400, and the
// job does not show the action: the 400 is the caller's error.
func TestJobActionRefusalStandsWhenTheJobDisagrees(t *testing.T) {
	for _, a := range jobActions {
		t.Run(a.name, func(t *testing.T) {
			srv, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
			id := editingJob(t, srv, c)
			srv.InjectFault(emulator.Fault{Endpoint: a.endpoint, Count: 1, Status: http.StatusServiceUnavailable})
			srv.InjectFault(emulator.Fault{Endpoint: a.endpoint, Count: 1, Status: http.StatusBadRequest})
			gets := srv.Requests(emulator.EndpointGetJob)

			_, err := a.call(c, context.Background(), id)
			if etl.StatusCode(err) != http.StatusBadRequest {
				t.Fatalf("err = %v, want the 400", err)
			}
			if srv.Requests(emulator.EndpointGetJob) != gets+1 {
				t.Fatal("the job was not read before giving up")
			}
			if j, _ := srv.Job(id); j.Status != string(etl.StatusEditing) {
				t.Fatalf("emulator holds the job as %s", j.Status)
			}
		})
	}
}

// TestJobActionRefusedAtFirstIsNotRecovered: a refusal of a request that
// was never retried is the answer; the job is not read.
func TestJobActionRefusedAtFirstIsNotRecovered(t *testing.T) {
	for _, a := range jobActions {
		t.Run(a.name, func(t *testing.T) {
			srv, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
			id := editingJob(t, srv, c)
			// The job is past the action already, yet a first refusal is
			// not second-guessed.
			if _, err := a.call(c, context.Background(), id); err != nil {
				t.Fatal(err)
			}
			srv.InjectFault(emulator.Fault{Endpoint: a.endpoint, Count: 1, Status: http.StatusBadRequest})
			gets := srv.Requests(emulator.EndpointGetJob)
			if _, err := a.call(c, context.Background(), id); etl.StatusCode(err) != http.StatusBadRequest {
				t.Fatalf("err = %v, want the 400", err)
			}
			if srv.Requests(emulator.EndpointGetJob) != gets {
				t.Fatal("a first refusal made the client read the job")
			}
		})
	}
}
