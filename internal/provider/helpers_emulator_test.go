package provider

// Test helpers for the emulator of the service: one served on loopback
// per test, the provider block that points at it, the ids it knows, jobs
// started on it directly, and state checks against its record of jobs
// and of the bytes each received; a client and a job runner of it, one
// whose requests are logged or wrapped, and a clock tests move.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// testEmulator is an emulator served on loopback for one test.
type testEmulator struct {
	*emulator.Server
	URL string
}

// newTestEmulator serves a new emulator with opts on loopback until the
// test ends; its jobs run for 50ms unless opts say otherwise.
func newTestEmulator(t *testing.T, opts emulator.Options) *testEmulator {
	t.Helper()
	if opts.RunTime == 0 && !opts.Instant {
		opts.RunTime = 50 * time.Millisecond
	}
	srv := emulator.New(withEnvRules(t, opts))
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &testEmulator{Server: srv, URL: ts.URL}
}

// providerConfig is the provider block pointing at the emulator.
func (e *testEmulator) providerConfig() string {
	return fmt.Sprintf(`
provider "etl" {
  base_url     = %q
  token_id     = %q
  token_secret = %q
  max_retries  = 1
}
`, e.URL, emulator.DefaultTokenID, emulator.DefaultTokenSecret)
}

// The models of the emulator's default templates (whose ids the emulator
// exports: emulator.GLActualsTemplateID and the others).
const (
	modelFinance = "600000000000000001"
	modelSales   = "600000000000000002"
)

// unknownTemplateID is a template id the emulator does not know.
const unknownTemplateID = "640101874288689999"

// requireTFAcc skips the test unless TF_ACC is set, as resource.Test
// does. Tests that go through resource.Test need no call to it; tests
// that drive the Terraform CLI themselves do, and so do tests whose setup
// before resource.Test is slow enough to skip early.
func requireTFAcc(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1")
	}
}

// emulatorCheck is a state check that runs fn with the values of the
// resource's attributes, to assert on the emulator with them.
type emulatorCheck struct {
	addr string
	fn   func(values map[string]any) error
}

// CheckState runs c.fn with the attribute values of the resource at
// c.addr; it fails when the state does not hold it.
func (c emulatorCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == c.addr {
			resp.Error = c.fn(r.AttributeValues)
			return
		}
	}
	resp.Error = fmt.Errorf("%s not in state", c.addr)
}

// checkEmulator builds an emulatorCheck.
func checkEmulator(addr string, fn func(values map[string]any) error) statecheck.StateCheck {
	return emulatorCheck{addr: addr, fn: fn}
}

// expectUpload asserts the emulator's job for the resource received the
// expected upload, hashing to the state's content_sha256.
func expectUpload(e *testEmulator, addr string, want emulator.Upload) statecheck.StateCheck {
	return checkEmulator(addr, func(v map[string]any) error {
		id, _ := v["id"].(string)
		job, ok := e.Job(id)
		if !ok {
			return fmt.Errorf("%s: job %q not on the emulator", addr, id)
		}
		u := job.Upload
		if u == nil {
			return fmt.Errorf("%s: job %s has no upload", addr, id)
		}
		if sum, _ := v["content_sha256"].(string); u.SHA256 != sum {
			return fmt.Errorf("%s: emulator received bytes with SHA-256 %s, state content_sha256 is %s", addr, u.SHA256, sum)
		}
		if want.Kind != "" && u.Kind != want.Kind {
			return fmt.Errorf("%s: upload kind %q, want %q", addr, u.Kind, want.Kind)
		}
		if want.Format != "" && u.Format != want.Format {
			return fmt.Errorf("%s: format %q, want %q", addr, u.Format, want.Format)
		}
		if want.Encoding != "" && u.Encoding != want.Encoding {
			return fmt.Errorf("%s: encoding %q, want %q", addr, u.Encoding, want.Encoding)
		}
		if want.FileName != "" && u.FileName != want.FileName {
			return fmt.Errorf("%s: file name %q, want %q", addr, u.FileName, want.FileName)
		}
		if want.PartName != "" && u.PartName != want.PartName {
			return fmt.Errorf("%s: part name %q, want %q", addr, u.PartName, want.PartName)
		}
		if want.Header != nil && !slices.Equal(u.Header, want.Header) {
			return fmt.Errorf("%s: header %q, want %q", addr, u.Header, want.Header)
		}
		if u.RowCount != want.RowCount {
			return fmt.Errorf("%s: %d data rows, want %d", addr, u.RowCount, want.RowCount)
		}
		if want.SHA256 != "" && u.SHA256 != want.SHA256 {
			return fmt.Errorf("%s: SHA-256 %s, want %s", addr, u.SHA256, want.SHA256)
		}
		if want.Bytes != 0 && u.Bytes != want.Bytes {
			return fmt.Errorf("%s: %d bytes received, want %d", addr, u.Bytes, want.Bytes)
		}
		for i, row := range want.Rows {
			if i >= len(u.Rows) || !slices.Equal(u.Rows[i], row) {
				return fmt.Errorf("%s: data rows %q, want %q first", addr, u.Rows, want.Rows)
			}
		}
		return nil
	})
}

// startJob starts a job on the emulator directly, as if outside Terraform.
func startJob(t *testing.T, e *testEmulator, templateID string, rows [][]string) string {
	t.Helper()
	c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
	if err != nil {
		t.Fatal(err)
	}
	job, err := c.StartWithData(context.Background(), templateID, etl.DataUpload{Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	return job.ID
}

func testClient(t *testing.T, e *testEmulator) *etl.Client {
	t.Helper()
	c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret, MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testRunner runs jobs on e with the tests' tuning.
func testRunner(t *testing.T, e *testEmulator) *jobRunner {
	t.Helper()
	return &jobRunner{client: testClient(t, e), tuning: testTuning}
}

// wireLog records the requests an emulator answered, as "METHOD PATH ->
// STATUS", in the order it answered them.
type wireLog struct {
	mu    sync.Mutex
	lines []string
}

// newLoggedEmulator starts an emulator whose requests are recorded.
func newLoggedEmulator(t *testing.T, opts emulator.Options) (*testEmulator, *wireLog) {
	w := &wireLog{}
	opts.Logf = func(_ string, args ...any) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.lines = append(w.lines, fmt.Sprintf("%s %s -> %v", args[0], args[1], args[3]))
	}
	return newTestEmulator(t, opts), w
}

// writes returns the requests that change something (every method but
// GET), in order.
func (w *wireLog) writes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(w.lines), func(l string) bool { return strings.HasPrefix(l, "GET ") })
}

func (w *wireLog) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.lines)
}

// wrappedEmulator serves the emulator behind wrap, to act on requests as
// they arrive.
func wrappedEmulator(t *testing.T, opts emulator.Options, wrap func(*emulator.Server, http.ResponseWriter, *http.Request)) *testEmulator {
	t.Helper()
	srv := emulator.New(withEnvRules(t, opts))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { wrap(srv, w, r) }))
	t.Cleanup(ts.Close)
	return &testEmulator{Server: srv, URL: ts.URL}
}

// testClock is the emulator's clock, moved forward by tests.
type testClock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off += d
}
