package etl_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// faultyNet fails the next dials (connection refused) or the first write of
// the next connections (connection reset before the request is written).
type faultyNet struct {
	refuse atomic.Int32
	reset  atomic.Int32
}

type resetConn struct {
	net.Conn
	armed atomic.Bool
}

func (c *resetConn) Write(p []byte) (int, error) {
	if c.armed.Swap(false) {
		_ = c.Conn.Close()
		return 0, &net.OpError{Op: "write", Net: "tcp", Err: syscall.ECONNRESET}
	}
	return c.Conn.Write(p)
}

func (f *faultyNet) transport(responseTimeout time.Duration) *http.Transport {
	return &http.Transport{
		ResponseHeaderTimeout: responseTimeout,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if f.refuse.Add(-1) >= 0 {
				return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
			}
			var d net.Dialer
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			rc := &resetConn{Conn: conn}
			if f.reset.Add(-1) >= 0 {
				rc.armed.Store(true)
			}
			return rc, nil
		},
	}
}

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
	call     func(ctx context.Context, c *etl.Client, jobID string) error
	// expect gives each fault's outcome where it is not plain success.
	expect map[string]outcome
}

var startExpect = map[string]outcome{
	"502": maybeNoJob, "504": maybeNoJob,
	"answer dropped after the request was handled": maybeOneJob,
	"answer slower than the request timeout":       maybeAtMost1,
}

var kinds = []endpointKind{
	{name: "list templates", endpoint: emulator.EndpointListTemplates, call: func(ctx context.Context, c *etl.Client, _ string) error {
		l, err := c.ListTemplates(ctx)
		if err == nil && len(l) != 4 {
			return fmt.Errorf("%d templates", len(l))
		}
		return err
	}},
	{name: "get template", endpoint: emulator.EndpointGetTemplate, call: func(ctx context.Context, c *etl.Client, _ string) error {
		t, err := c.GetTemplate(ctx, glTemplate)
		if err == nil && len(t.Steps) != 1 {
			return fmt.Errorf("steps %v", t.Steps)
		}
		return err
	}},
	{name: "start with file", endpoint: emulator.EndpointStartWithFile, creates: true, expect: startExpect,
		call: func(ctx context.Context, c *etl.Client, _ string) error {
			_, err := c.StartWithFile(ctx, glTemplate, fileOf([]byte("Account,Amount\n4000,1\n"), etl.FormatCSV, etl.EncodingUTF8, "gl.csv"))
			return err
		}},
	{name: "start with data", endpoint: emulator.EndpointStartWithData, creates: true, expect: startExpect,
		call: func(ctx context.Context, c *etl.Client, _ string) error {
			_, err := c.StartWithData(ctx, glTemplate, etl.DataUpload{Rows: [][]string{{"Account", "Amount"}, {"4000", "1"}}})
			return err
		}},
	{name: "submit", endpoint: emulator.EndpointSubmitJob, call: func(ctx context.Context, c *etl.Client, id string) error {
		j, err := c.SubmitJob(ctx, id)
		if err == nil && j.Status != etl.StatusSubmitted {
			return fmt.Errorf("status %s", j.Status)
		}
		return err
	}},
	{name: "cancel", endpoint: emulator.EndpointCancelJob, call: func(ctx context.Context, c *etl.Client, id string) error {
		j, err := c.CancelJob(ctx, id)
		if err == nil && j.Status != etl.StatusCancelled {
			return fmt.Errorf("status %s", j.Status)
		}
		return err
	}},
	{name: "get job", endpoint: emulator.EndpointGetJob, call: func(ctx context.Context, c *etl.Client, id string) error {
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
	cells, passed := 0, 0
	for _, k := range kinds {
		for _, f := range faults {
			want := succeeds
			if o, ok := k.expect[f.name]; ok {
				want = o
			}
			cells++
			ok := t.Run(k.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				srv := emulator.New(emulator.Options{RunTime: time.Hour})
				ts := httptest.NewServer(srv)
				defer ts.Close()
				fn := &faultyNet{}
				c, err := etl.New(etl.Config{
					BaseURL: ts.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret,
					MaxRetries: 3, RetryWaitMin: time.Millisecond, RetryWaitMax: 20 * time.Millisecond,
					Transport: fn.transport(500 * time.Millisecond),
				})
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				// A job for the job endpoints, made before any fault.
				job, err := c.StartWithData(ctx, salesTemplate, etl.DataUpload{Rows: [][]string{{"Product", "Units"}, {"P", "1"}}})
				if err != nil {
					t.Fatal(err)
				}
				before, _ := srv.Stats()
				f.apply(srv, k.endpoint, fn)

				err = k.call(ctx, c, job.ID)

				after, _ := srv.Stats()
				created := after - before
				if created > 1 {
					t.Fatalf("%d jobs created: a retry duplicated the import", created)
				}
				var maybe *etl.JobMaybeCreatedError
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
			})
			if ok {
				passed++
			}
		}
	}
	t.Logf("fault matrix: %d cells, %d passed", cells, passed)
	if cells != len(kinds)*len(faults) || cells < 63 {
		t.Fatalf("matrix has %d cells", cells)
	}
}
