package etl

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
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
		if (job.Status != jobstatus.StatusRunning && job.Status != jobstatus.StatusQueued) || len(job.ID) != 19 || job.Name != "GL Actuals" || job.ModelID == "" {
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
	if err != nil || job.Status != jobstatus.StatusRunning {
		t.Fatalf("start: %+v %v", job, err)
	}
	if u := srv.Jobs()[0].Upload; u == nil || u.Kind != "data" || u.RowCount != 1 {
		t.Fatalf("data upload: %+v", u)
	}
	sub, err := c.SubmitJob(ctx, job.ID)
	if err != nil || sub.Status != jobstatus.StatusSubmitted || sub.ID != job.ID {
		t.Fatalf("submit: %+v %v", sub, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var status jobstatus.JobStatus
	for time.Now().Before(deadline) {
		if status, err = c.GetJobStatus(ctx, job.ID); err != nil || status.Final() {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil || status != jobstatus.StatusCompleted {
		t.Fatalf("status = %s, %v", status, err)
	}
	got, err := c.GetJob(ctx, job.ID)
	if err != nil || got.Status != jobstatus.StatusCompleted || got.UpdatedDate == nil || *got.UpdatedDate < got.CreatedDate {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := c.CancelJob(ctx, job.ID); StatusCode(err) != http.StatusConflict {
		t.Fatalf("cancel of a completed job: %v", err)
	}

	// A created job takes a file into one of its template's inputs.
	created, err := c.CreateJob(ctx, emulator.GLActualsTemplateID)
	if err != nil || created.Status != jobstatus.StatusEditing {
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
	if err != nil || cancelled.Status != jobstatus.StatusCancelled {
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
	done     jobstatus.JobStatus // the status the action leads to
}

var jobActions = []jobAction{
	{"submit", emulator.EndpointSubmitJob, (*Client).SubmitJob, jobstatus.StatusSubmitted},
	{"cancel", emulator.EndpointCancelJob, (*Client).CancelJob, jobstatus.StatusCancelled},
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
	if j, _ := srv.Job(job.ID); j.Status != string(jobstatus.StatusEditing) {
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
			if j, _ := srv.Job(id); j.Status != string(jobstatus.StatusEditing) {
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
			if err != nil || job.Status != jobstatus.StatusCompleted {
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
	if !errors.As(err, &ended) || ended.Job.ID != id || ended.Job.Status != jobstatus.StatusCancelled {
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
	for _, s := range jobstatus.AllStatuses {
		want := s != jobstatus.StatusEditing && s != jobstatus.StatusNotStarted && !s.Failed()
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
	if status, err := c.CancelUnfinished(ctx, running); err != nil || status != jobstatus.StatusRunning {
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
	if status, err := c.CancelUnfinished(ctx, done); err != nil || status != jobstatus.StatusCompleted {
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
	if status, err := c.CancelUnfinished(ctx, id); status != jobstatus.StatusRunning || StatusCode(err) != http.StatusForbidden {
		t.Errorf("cancel refused: %q, %v; want RUNNING and the 403", status, err)
	}
}

// twoStepLoads are a file for each input of the emulator's two-step
// template, in its step order.
func twoStepLoads() []InputLoad {
	return []InputLoad{
		{InputID: emulator.TwoStepActualsInputID, File: fileOf([]byte("Account,Amount\n4000,1\n"), flatfile.FormatCSV, flatfile.EncodingUTF8, "actuals.csv")},
		{InputID: emulator.TwoStepRatesInputID, File: fileOf([]byte("Currency,Rate\nEUR,1.08\n"), flatfile.FormatCSV, flatfile.EncodingUTF8, "rates.csv")},
	}
}

// createTwoStep creates a job of the two-step template.
func createTwoStep(t *testing.T, c *Client) string {
	t.Helper()
	job, err := c.CreateJob(context.Background(), emulator.TwoStepTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	return job.ID
}

// TestLoadInputs: each file goes to its input, in order, between before
// and the function it returns; the file before leaves is the one sent.
func TestLoadInputs(t *testing.T) {
	e, c := startEmulator(t, emulator.Options{})
	id := createTwoStep(t, c)
	var events []string
	before := func(i int, f *FileUpload) func() {
		events = append(events, "before "+twoStepLoads()[i].InputID)
		if i == 1 { // the rates sent in place of the file
			rates := []byte("Currency,Rate\nUSD,1\n")
			*f = fileOf(rates, flatfile.FormatCSV, flatfile.EncodingUTF8, "usd.csv")
		}
		return func() { events = append(events, "done") }
	}
	if err := c.LoadInputs(context.Background(), id, twoStepLoads(), before); err != nil {
		t.Fatal(err)
	}
	want := []string{"before " + emulator.TwoStepActualsInputID, "done", "before " + emulator.TwoStepRatesInputID, "done"}
	if len(events) != len(want) || events[0] != want[0] || events[1] != want[1] || events[2] != want[2] || events[3] != want[3] {
		t.Errorf("events %v, want %v", events, want)
	}
	j, _ := e.Job(id)
	if j.Status != emulator.StatusEditing || len(j.Inputs) != 2 || j.Inputs[emulator.TwoStepRatesInputID].SHA256 != sha([]byte("Currency,Rate\nUSD,1\n")) {
		t.Errorf("job %s with inputs %+v, want both loaded, the rates as before replaced them, and the job EDITING", j.Status, j.Inputs)
	}
	if err := c.LoadInputs(context.Background(), id, nil, nil); err != nil {
		t.Errorf("no loads: %v", err)
	}
}

// TestLoadInputs_fails: a failed load stops the loads and cancels the job,
// with time of its own; a cancel that fails too is said.
func TestLoadInputs_fails(t *testing.T) {
	loadFails := emulator.Fault{Endpoint: emulator.EndpointUploadJobFile, Count: 1, Status: http.StatusUnprocessableEntity}
	cancelFails := emulator.Fault{Endpoint: emulator.EndpointCancelJob, Count: 1, Status: http.StatusBadRequest}
	for _, c := range []struct {
		name   string
		faults []emulator.Fault
		ended  bool // the caller's context has ended before the loads
		want   func(le *LoadError) bool
		status string // the job's, after
	}{
		{"cancelled", []emulator.Fault{loadFails}, false, func(le *LoadError) bool {
			return le.Index == 0 && le.InputID == emulator.TwoStepActualsInputID && StatusCode(le) == http.StatusUnprocessableEntity &&
				le.CancelErr == nil && le.Cancelled != nil && le.Cancelled.Status == jobstatus.StatusCancelled
		}, emulator.StatusCancelled},
		{"cancel fails too", []emulator.Fault{loadFails, cancelFails}, false, func(le *LoadError) bool {
			return le.Cancelled == nil && StatusCode(le.CancelErr) == http.StatusBadRequest
		}, emulator.StatusEditing},
		{"time of its own", nil, true, func(le *LoadError) bool {
			return errors.Is(le, context.Canceled) && le.Cancelled != nil
		}, emulator.StatusCancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, cl := startEmulator(t, emulator.Options{})
			id := createTwoStep(t, cl)
			for _, f := range c.faults {
				e.InjectFault(f)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.ended {
				cancel()
			}
			var le *LoadError
			if err := cl.LoadInputs(ctx, id, twoStepLoads(), nil); !errors.As(err, &le) || !c.want(le) {
				t.Fatalf("LoadInputs = %#v", err)
			}
			if n := e.Requests(emulator.EndpointUploadJobFile); n > 1 {
				t.Errorf("%d loads, want none after the failed one", n)
			}
			if j, _ := e.Job(id); j.Status != c.status {
				t.Errorf("job %s, want %s", j.Status, c.status)
			}
		})
	}
}
