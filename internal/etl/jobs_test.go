package etl

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

func TestValidJobID(t *testing.T) {
	for id, want := range map[string]bool{
		"123456789012345678":   true,
		"1234567890123456789":  true,
		"12345678901234567":    false,
		"12345678901234567890": false,
		"12345678901234567a":   false,
		"":                     false,
		" 123456789012345678":  false,
	} {
		if got := ValidJobID(id); got != want {
			t.Errorf("ValidJobID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestEmulatorStartWithFileEveryFormat(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{RunTime: 20 * time.Millisecond})
	ctx := context.Background()
	for _, tc := range []struct {
		format flatfile.Format
		sep    string
	}{{flatfile.FormatCSV, ","}, {flatfile.FormatPSV, "|"}, {flatfile.FormatTDF, "\t"}} {
		content := []byte("Account" + tc.sep + "Amount\n4000" + tc.sep + "1\n4100" + tc.sep + "2\n")
		job, err := c.StartWithFile(ctx, emulator.GLActualsTemplateID, fileOf(content, tc.format, flatfile.EncodingUTF8, "gl.txt"))
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if (job.Status != StatusRunning && job.Status != StatusQueued) || len(job.ID) != 19 || job.Name != "GL Actuals" || job.ModelID == "" {
			t.Fatalf("%s: job %+v", tc.format, job)
		}
		got, ok := srv.Job(job.ID)
		if !ok || got.Upload == nil {
			t.Fatalf("%s: emulator has no upload for %s", tc.format, job.ID)
		}
		u := got.Upload
		if u.Format != string(tc.format) || u.RowCount != 2 || strings.Join(u.Header, ",") != "Account,Amount" || u.SHA256 != sha(content) || u.Bytes != int64(len(content)) {
			t.Fatalf("%s: upload %+v", tc.format, u)
		}
	}
}

func TestEmulatorJobLifecycle(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{RunTime: 30 * time.Millisecond})
	ctx := context.Background()

	job, err := c.StartWithData(ctx, emulator.SalesVolumesTemplateID, DataUpload{Rows: [][]string{{"Product", "Units"}, {"P1", "3"}}})
	if err != nil || job.Status != StatusRunning {
		t.Fatalf("start: %+v %v", job, err)
	}
	if u := srv.Jobs()[0].Upload; u == nil || u.Kind != "data" || u.RowCount != 1 {
		t.Fatalf("data upload: %+v", u)
	}
	sub, err := c.SubmitJob(ctx, job.ID)
	if err != nil || sub.Status != StatusSubmitted || sub.ID != job.ID {
		t.Fatalf("submit: %+v %v", sub, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var status JobStatus
	for time.Now().Before(deadline) {
		if status, err = c.GetJobStatus(ctx, job.ID); err != nil || status.Final() {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil || status != StatusCompleted {
		t.Fatalf("status = %s, %v", status, err)
	}
	got, err := c.GetJob(ctx, job.ID)
	if err != nil || got.Status != StatusCompleted || got.UpdatedDate == nil || *got.UpdatedDate < got.CreatedDate {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := c.CancelJob(ctx, job.ID); StatusCode(err) != http.StatusConflict {
		t.Fatalf("cancel of a completed job: %v", err)
	}

	// A created job takes a file into one of its template's inputs.
	created, err := c.CreateJob(ctx, emulator.GLActualsTemplateID)
	if err != nil || created.Status != StatusEditing {
		t.Fatalf("create: %+v %v", created, err)
	}
	content := []byte("Account,Amount\n4000,5\n")
	if err := c.UploadJobFile(ctx, created.ID, emulator.GLActualsInputID, fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv")); err != nil {
		t.Fatal(err)
	}
	if j, _ := srv.Job(created.ID); j.Upload == nil || j.Upload.SHA256 != sha(content) {
		t.Fatalf("upload to input: %+v", j.Upload)
	}
	if err := c.UploadJobFile(ctx, created.ID, "1", fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv")); !IsNotFound(err) {
		t.Fatalf("unknown input: %v", err)
	}
	cancelled, err := c.CancelJob(ctx, created.ID)
	if err != nil || cancelled.Status != StatusCancelled {
		t.Fatalf("cancel: %+v %v", cancelled, err)
	}
	if _, err := c.GetJob(ctx, "1234567890123456789"); !IsNotFound(err) {
		t.Fatalf("unknown job: %v", err)
	}
}

type jobAction struct {
	name     string
	endpoint emulator.Endpoint
	call     func(*Client, context.Context, string) (*Job, error)
	done     JobStatus // the status the action leads to
}

var jobActions = []jobAction{
	{"submit", emulator.EndpointSubmitJob, (*Client).SubmitJob, StatusSubmitted},
	{"cancel", emulator.EndpointCancelJob, (*Client).CancelJob, StatusCancelled},
}

// editingJob creates a job with its data loaded, not yet submitted.
func editingJob(t *testing.T, srv *emulator.Server, c *Client) string {
	t.Helper()
	ctx := context.Background()
	job, err := c.CreateJob(ctx, emulator.GLActualsTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte("Account,Amount\n4000,1\n")
	if err := c.UploadJobFile(ctx, job.ID, emulator.GLActualsInputID, fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv")); err != nil {
		t.Fatal(err)
	}
	if j, _ := srv.Job(job.ID); j.Status != string(StatusEditing) {
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
			if StatusCode(err) != http.StatusBadRequest {
				t.Fatalf("err = %v, want the 400", err)
			}
			if srv.Requests(emulator.EndpointGetJob) != gets+1 {
				t.Fatal("the job was not read before giving up")
			}
			if j, _ := srv.Job(id); j.Status != string(StatusEditing) {
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
			if _, err := a.call(c, context.Background(), id); StatusCode(err) != http.StatusBadRequest {
				t.Fatalf("err = %v, want the 400", err)
			}
			if srv.Requests(emulator.EndpointGetJob) != gets {
				t.Fatal("a first refusal made the client read the job")
			}
		})
	}
}
