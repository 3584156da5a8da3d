package etl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// outcome is what a cell of the matrix must end in.
type outcome int

const (
	succeeds     outcome = iota // success; a start creates exactly one job
	maybeNoJob                  // JobMaybeCreatedError, and the service holds no new job
	maybeOneJob                 // JobMaybeCreatedError, and the service holds exactly one new job
	maybeAtMost1                // JobMaybeCreatedError, and at most one new job
)

func (o outcome) String() string {
	return [...]string{"success", "maybe-created error, no job", "maybe-created error, one job", "maybe-created error, at most one job"}[o]
}

type fault struct {
	name  string
	apply func(srv *emulator.Server, e emulator.Endpoint, fn *faultyNet)
}

var faults = []fault{
	{"429 with Retry-After", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 2, Status: 429, RetryAfter: "0"})
	}},
	{"429 without Retry-After", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 2, Status: 429})
	}},
	{"502", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 1, Status: 502})
	}},
	{"503", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 2, Status: 503})
	}},
	{"504", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 1, Status: 504})
	}},
	{"connection refused", func(_ *emulator.Server, _ emulator.Endpoint, f *faultyNet) { f.refuse.Store(2) }},
	{"connection reset before the request is written", func(_ *emulator.Server, _ emulator.Endpoint, f *faultyNet) { f.reset.Store(1) }},
	{"answer dropped after the request was handled", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 1, DropAfterHandling: true})
	}},
	{"answer slower than the request timeout", func(s *emulator.Server, e emulator.Endpoint, _ *faultyNet) {
		s.InjectFault(emulator.Fault{Endpoint: e, Count: 1, Latency: 1500 * time.Millisecond})
	}},
}

type endpointKind struct {
	name     string
	endpoint emulator.Endpoint
	creates  bool
	// setup makes the job the call works on, before any fault; nil: a
	// started job.
	setup func(ctx context.Context, c *Client) (string, error)
	// call makes the request, and checks its result and the emulator's
	// record of it.
	call func(ctx context.Context, c *Client, srv *emulator.Server, jobID string) error
	// expect gives each fault's outcome where it is not plain success.
	expect map[string]outcome
}

var startExpect = map[string]outcome{
	"502": maybeNoJob, "504": maybeNoJob,
	"answer dropped after the request was handled": maybeOneJob,
	"answer slower than the request timeout":       maybeAtMost1,
}

// startedJob is a running job with data, for the job endpoints.
func startedJob(ctx context.Context, c *Client) (string, error) {
	job, err := c.StartWithData(ctx, emulator.SalesVolumesTemplateID, DataUpload{Rows: [][]string{{"Product", "Units"}, {"P", "1"}}})
	if err != nil {
		return "", err
	}
	return job.ID, nil
}

// createdJob is a job created without data (EDITING), for the input upload.
func createdJob(ctx context.Context, c *Client) (string, error) {
	job, err := c.CreateJob(ctx, emulator.GLActualsTemplateID)
	if err != nil {
		return "", err
	}
	return job.ID, nil
}

var matrixFile = []byte("Account,Amount\n4000,1\n")

var kinds = []endpointKind{
	{name: "list templates", endpoint: emulator.EndpointListTemplates, call: func(ctx context.Context, c *Client, _ *emulator.Server, _ string) error {
		l, err := c.ListTemplates(ctx)
		if err == nil && len(l) != len(emulator.DefaultTemplates()) {
			return fmt.Errorf("%d templates", len(l))
		}
		return err
	}},
	{name: "get template", endpoint: emulator.EndpointGetTemplate, call: func(ctx context.Context, c *Client, _ *emulator.Server, _ string) error {
		t, err := c.GetTemplate(ctx, emulator.GLActualsTemplateID)
		if err == nil && len(t.Steps) != 1 {
			return fmt.Errorf("steps %v", t.Steps)
		}
		return err
	}},
	{name: "start with file", endpoint: emulator.EndpointStartWithFile, creates: true, expect: startExpect,
		call: func(ctx context.Context, c *Client, _ *emulator.Server, _ string) error {
			_, err := c.StartWithFile(ctx, emulator.GLActualsTemplateID, fileOf(matrixFile, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv"))
			return err
		}},
	{name: "start with data", endpoint: emulator.EndpointStartWithData, creates: true, expect: startExpect,
		call: func(ctx context.Context, c *Client, _ *emulator.Server, _ string) error {
			_, err := c.StartWithData(ctx, emulator.GLActualsTemplateID, DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "1"}}})
			return err
		}},
	{name: "create job", endpoint: emulator.EndpointCreateJob, creates: true, expect: startExpect,
		call: func(ctx context.Context, c *Client, _ *emulator.Server, _ string) error {
			j, err := c.CreateJob(ctx, emulator.GLActualsTemplateID)
			if err == nil && j.Status != jobstatus.StatusEditing {
				return fmt.Errorf("status %s", j.Status)
			}
			return err
		}},
	{name: "upload job file", endpoint: emulator.EndpointUploadJobFile, setup: createdJob,
		call: func(ctx context.Context, c *Client, srv *emulator.Server, id string) error {
			if err := c.UploadJobFile(ctx, id, emulator.GLActualsInputID, fileOf(matrixFile, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv")); err != nil {
				return err
			}
			if j, _ := srv.Job(id); j.Upload == nil || j.Upload.SHA256 != sha(matrixFile) || j.Status != string(jobstatus.StatusEditing) {
				return fmt.Errorf("the emulator holds %+v (status %s), want the file's bytes in an EDITING job", j.Upload, j.Status)
			}
			return nil
		}},
	{name: "submit", endpoint: emulator.EndpointSubmitJob, call: func(ctx context.Context, c *Client, srv *emulator.Server, id string) error {
		j, err := c.SubmitJob(ctx, id)
		if err == nil && j.Status != jobstatus.StatusSubmitted {
			return fmt.Errorf("status %s", j.Status)
		}
		if got, _ := srv.Job(id); err == nil && got.Status != string(jobstatus.StatusSubmitted) {
			return fmt.Errorf("the emulator holds the job as %s", got.Status)
		}
		return err
	}},
	{name: "cancel", endpoint: emulator.EndpointCancelJob, call: func(ctx context.Context, c *Client, srv *emulator.Server, id string) error {
		j, err := c.CancelJob(ctx, id)
		if err == nil && j.Status != jobstatus.StatusCancelled {
			return fmt.Errorf("status %s", j.Status)
		}
		if got, _ := srv.Job(id); err == nil && got.Status != string(jobstatus.StatusCancelled) {
			return fmt.Errorf("the emulator holds the job as %s", got.Status)
		}
		return err
	}},
	{name: "get job", endpoint: emulator.EndpointGetJob, call: func(ctx context.Context, c *Client, _ *emulator.Server, id string) error {
		j, err := c.GetJob(ctx, id)
		if err == nil && j.ID != id {
			return fmt.Errorf("job %s", j.ID)
		}
		return err
	}},
}

// TestFaultMatrix runs every endpoint kind against every fault and checks
// the outcome written down for the cell: success (a start creating exactly
// one job), or an error that names the job as possibly created with the
// number of jobs the service holds. Never two jobs.
func TestFaultMatrix(t *testing.T) {
	cells, passed := runFaultMatrix(t, emulator.Options{RunTime: time.Hour}, kinds)
	t.Logf("fault matrix: %d cells, %d passed", cells, passed)
	if cells != len(kinds)*len(faults) || cells < 81 {
		t.Fatalf("matrix has %d cells", cells)
	}
}

// runFaultMatrix runs each kind against each fault on emulators made with
// opts, in parallel, and returns the number of cells and of cells passed.
func runFaultMatrix(t *testing.T, opts emulator.Options, kinds []endpointKind) (cells, passed int) {
	for _, k := range kinds {
		for _, f := range faults {
			want := succeeds
			if o, ok := k.expect[f.name]; ok {
				want = o
			}
			cells++
			if t.Run(k.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				runFaultCell(t, opts, k, f, want)
			}) {
				passed++
			}
		}
	}
	return cells, passed
}

// runFaultCell runs one kind against one fault and checks the outcome.
func runFaultCell(t *testing.T, opts emulator.Options, k endpointKind, f fault, want outcome) {
	srv := emulator.New(opts)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	fn := &faultyNet{}
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) {
		cfg.TokenID, cfg.TokenSecret = emulator.DefaultTokenID, emulator.DefaultTokenSecret
		cfg.Transport = fn.transport(500 * time.Millisecond)
	})
	ctx := context.Background()
	setup := k.setup
	if setup == nil {
		setup = startedJob
	}
	jobID, err := setup(ctx, c) // made before any fault
	if err != nil {
		t.Fatal(err)
	}
	before, _ := srv.Stats()
	f.apply(srv, k.endpoint, fn)

	err = k.call(ctx, c, srv, jobID)

	after, _ := srv.Stats()
	created := after - before
	if created > 1 {
		t.Fatalf("%d jobs created: a retry duplicated the import", created)
	}
	var maybe *JobMaybeCreatedError
	switch want {
	case succeeds:
		if err != nil {
			t.Fatalf("want success, got %v", err)
		}
		if k.creates && created != 1 {
			t.Fatalf("success with %d new jobs, want 1", created)
		}
		if !k.creates && created != 0 {
			t.Fatalf("%d new jobs from a call that creates none", created)
		}
	case maybeNoJob, maybeOneJob, maybeAtMost1:
		if !errors.As(err, &maybe) {
			t.Fatalf("want %s, got %v", want, err)
		}
		if want == maybeNoJob && created != 0 || want == maybeOneJob && created != 1 {
			t.Fatalf("want %s, the service holds %d new jobs", want, created)
		}
	}
	t.Logf("%s / %s: %s (new jobs: %d, err: %v)", k.name, f.name, want, created, err)
}

// loadedJob is a created job with its one input loaded (EDITING).
func loadedJob(ctx context.Context, c *Client) (string, error) {
	id, err := createdJob(ctx, c)
	if err != nil {
		return "", err
	}
	return id, c.UploadJobFile(ctx, id, emulator.GLActualsInputID, fileOf(matrixFile, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv"))
}

// finishedAction is a submit or cancel of a loaded job on an emulator that
// finishes jobs at once: a retry after a first attempt that was done meets
// a conflict, since the job is final.
func finishedAction(name string, endpoint emulator.Endpoint, act func(*Client, context.Context, string) (*Job, error), want jobstatus.JobStatus) endpointKind {
	return endpointKind{name: name + ", job final at once", endpoint: endpoint, setup: loadedJob,
		call: func(ctx context.Context, c *Client, srv *emulator.Server, id string) error {
			j, err := act(c, ctx, id)
			if err != nil {
				return err
			}
			if got, _ := srv.Job(id); j.Status != want || got.Status != string(want) {
				return fmt.Errorf("answered %s, the emulator holds %s; want %s", j.Status, got.Status, want)
			}
			return nil
		}}
}

// kindsNamed picks kinds by name.
func kindsNamed(t *testing.T, names ...string) []endpointKind {
	var out []endpointKind
	for _, n := range names {
		i := slices.IndexFunc(kinds, func(k endpointKind) bool { return k.name == n })
		if i < 0 {
			t.Fatalf("no kind %q", n)
		}
		out = append(out, kinds[i])
	}
	return out
}

// TestFaultMatrixConflict400: the emulator answers a conflict with 400
// (Options.ConflictStatus) instead of 409, as the real service may. Every
// submit, cancel and input upload cell runs again; the client must not
// depend on 409 to recover a retried submit or cancel. On an emulator
// that finishes jobs at once, each retry after a handled first attempt
// meets that 400. All pass, never two jobs.
func TestFaultMatrixConflict400(t *testing.T) {
	cells, passed := runFaultMatrix(t, emulator.Options{RunTime: time.Hour, ConflictStatus: http.StatusBadRequest},
		kindsNamed(t, "submit", "cancel", "upload job file"))
	c2, p2 := runFaultMatrix(t, emulator.Options{Instant: true, ConflictStatus: http.StatusBadRequest}, []endpointKind{
		finishedAction("submit", emulator.EndpointSubmitJob, (*Client).SubmitJob, jobstatus.StatusCompleted),
		finishedAction("cancel", emulator.EndpointCancelJob, (*Client).CancelJob, jobstatus.StatusCancelled),
	})
	cells, passed = cells+c2, passed+p2
	t.Logf("fault matrix, conflicts answered 400: %d cells, %d passed", cells, passed)
	if cells != 5*len(faults) {
		t.Fatalf("matrix has %d cells", cells)
	}
}
