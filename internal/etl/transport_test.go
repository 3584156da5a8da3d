package etl

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

func TestAuthAndHeaders(t *testing.T) {
	srv := &scripted{body: `[]`}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, rec := newTestClient(t, ts.URL, nil)
	if _, err := c.ListTemplates(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(testTokenID+":"+testSecret))
	if srv.lastAuth != want {
		t.Fatalf("Authorization = %q", srv.lastAuth)
	}
	if srv.lastUA != "terraform-provider-etl/test" {
		t.Fatalf("User-Agent = %q", srv.lastUA)
	}
	assertNoSecret(t, rec.text())
	if !strings.Contains(rec.text(), "/api/public/v1/etl/templates") || !strings.Contains(rec.text(), "status:200") {
		t.Fatalf("log lacks method/path/status: %s", rec.text())
	}
}

func TestCreateRetriedWhenConnectionFailsBeforeWrite(t *testing.T) {
	srv := &scripted{body: jobJSON}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	d := &faultyNet{}
	d.refuse.Store(2)
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) { cfg.Transport = d.transport(0) })
	job, err := c.StartWithData(context.Background(), "1", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != "1234567890123456789" || srv.requests.Load() != 1 || d.dials.Load() != 3 {
		t.Fatalf("job %v, requests %d, dials %d", job, srv.requests.Load(), d.dials.Load())
	}
}

func TestCreateNotRetriedWhenAnswerIsLost(t *testing.T) {
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}))
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, nil)
	_, err := c.StartWithData(context.Background(), "42", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
	var maybe *JobMaybeCreatedError
	if !errors.As(err, &maybe) || maybe.TemplateID != "42" {
		t.Fatalf("err = %v, want JobMaybeCreatedError for template 42", err)
	}
	if requests.Load() != 1 {
		t.Fatalf("requests = %d: a start whose answer was lost must not be retried", requests.Load())
	}
	if !strings.Contains(err.Error(), "may have been created") || !strings.Contains(err.Error(), "not retried") {
		t.Fatalf("message does not explain: %v", err)
	}
	// The same fault on a read is retried until the retries run out.
	requests.Store(0)
	_, err = c.GetJob(context.Background(), "1234567890123456789")
	var reqErr *RequestError
	if !errors.As(err, &reqErr) || requests.Load() != 4 || reqErr.Attempts != 4 {
		t.Fatalf("read: err = %v, requests = %d", err, requests.Load())
	}
}

func TestCreateNotRetriedOnResponseTimeout(t *testing.T) {
	var requests atomic.Int32
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) {
		tr := &http.Transport{ResponseHeaderTimeout: 100 * time.Millisecond}
		cfg.Transport = tr
	})
	_, err := c.StartWithData(context.Background(), "7", DataUpload{Rows: [][]string{{"A"}}})
	var maybe *JobMaybeCreatedError
	if !errors.As(err, &maybe) || requests.Load() != 1 {
		t.Fatalf("err = %v, requests %d", err, requests.Load())
	}
}

func TestBackoff(t *testing.T) {
	minW, maxW := 100*time.Millisecond, 2*time.Second
	for attempt := 0; attempt < 8; attempt++ {
		step := minW << attempt
		if step > maxW {
			step = maxW
		}
		for i := 0; i < 50; i++ {
			d := backoff(minW, maxW, attempt, nil)
			if d < step/2 || d > step {
				t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, d, step/2, step)
			}
		}
	}
	resp := &http.Response{Header: http.Header{"Retry-After": {"1"}}}
	if d := backoff(minW, maxW, 0, resp); d != time.Second {
		t.Fatalf("Retry-After 1: got %v", d)
	}
	resp.Header.Set("Retry-After", "120")
	if d := backoff(minW, maxW, 0, resp); d != maxW {
		t.Fatalf("Retry-After over the cap: got %v, want %v", d, maxW)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if d, ok := retryAfter(now.Add(3*time.Second).Format(http.TimeFormat), now); !ok || d != 3*time.Second {
		t.Fatalf("HTTP-date Retry-After: %v %v", d, ok)
	}
	if _, ok := retryAfter("soon", now); ok {
		t.Fatal("garbage Retry-After must be ignored")
	}
}

func TestRetryPolicyByStatus(t *testing.T) {
	type call func(c *Client) error
	read := func(c *Client) error { _, err := c.GetJob(context.Background(), "1234567890123456789"); return err }
	create := func(c *Client) error {
		_, err := c.StartWithData(context.Background(), "1", DataUpload{Rows: [][]string{{"A"}, {"1"}}})
		return err
	}
	cases := []struct {
		name         string
		fn           call
		statuses     []int
		wantRequests int32
		wantOK       bool
		maybeCreated bool
	}{
		{"read 429 then ok", read, []int{429}, 2, true, false},
		{"read 502 503 504 then ok", read, []int{502, 503, 504}, 4, true, false},
		{"read 500 not retried", read, []int{500}, 1, false, false},
		{"read 404 not retried", read, []int{404}, 1, false, false},
		{"read exhausts retries", read, []int{503, 503, 503, 503, 503}, 4, false, false},
		{"create 429 then ok", create, []int{429}, 2, true, false},
		{"create 503 then ok", create, []int{503, 503}, 3, true, false},
		{"create 502 not retried", create, []int{502}, 1, false, true},
		{"create 504 not retried", create, []int{504}, 1, false, true},
		{"create 500 not retried", create, []int{500}, 1, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := &scripted{statuses: tc.statuses, body: jobJSON}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			c, _ := newTestClient(t, ts.URL, nil)
			err := tc.fn(c)
			if got := srv.requests.Load(); got != tc.wantRequests {
				t.Fatalf("requests = %d, want %d (err %v)", got, tc.wantRequests, err)
			}
			if tc.wantOK != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.wantOK)
			}
			var maybe *JobMaybeCreatedError
			if errors.As(err, &maybe) != tc.maybeCreated {
				t.Fatalf("err = %v, maybeCreated want %v", err, tc.maybeCreated)
			}
			var apiErr *APIError
			if err != nil && !errors.As(err, &apiErr) {
				t.Fatalf("err %T does not carry an APIError", err)
			}
			if apiErr != nil && apiErr.Attempts != int(tc.wantRequests) {
				t.Fatalf("Attempts = %d, want %d", apiErr.Attempts, tc.wantRequests)
			}
			if apiErr != nil && !strings.Contains(err.Error(), "scripted") {
				t.Fatalf("the error does not carry the service's message: %v", err)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := &scripted{statuses: []int{429}, header: http.Header{"Retry-After": {"1"}}, body: `[]`}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) { cfg.RetryWaitMax = 5 * time.Second })
	start := time.Now()
	if _, err := c.ListTemplates(context.Background()); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < time.Second {
		t.Fatalf("retried after %v, before the 1 s Retry-After", waited)
	}
}

func TestContextCancelStopsRetries(t *testing.T) {
	srv := &scripted{statuses: []int{503, 503, 503, 503}, header: http.Header{"Retry-After": {"10"}}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, func(cfg *Config) { cfg.RetryWaitMax = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.ListTemplates(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || srv.requests.Load() != 1 {
		t.Fatalf("err = %v, requests = %d", err, srv.requests.Load())
	}
}

// abortingReader serves its bytes, then fails with err instead of handing
// over the last one.
type abortingReader struct {
	r   io.Reader
	err error
}

func (a *abortingReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if errors.Is(err, io.EOF) || n == 0 {
		return 0, a.err
	}
	return n, err
}

func (a *abortingReader) Close() error { return nil }

// changedError is a reader's own error that stops an upload for good, as
// localfile's ChangedError does.
type changedError struct{}

func (changedError) Error() string      { return "bytes changed" }
func (changedError) AbortsUpload() bool { return true }

// An upload its reader aborts (with an error of its own whose AbortsUpload
// is true) is not retried, and the server never receives a complete body.
func TestUploadAbortedIsNotRetried(t *testing.T) {
	for name, readErr := range map[string]error{
		"its own": changedError{},
		"wrapped": fmt.Errorf("reading: %w", changedError{}),
	} {
		t.Run(name, func(t *testing.T) {
			requests, complete, err := startAborted(t, readErr)
			if !errors.Is(err, readErr) {
				t.Fatalf("error %v, want one wrapping %v", err, readErr)
			}
			var maybe *JobMaybeCreatedError
			if errors.As(err, &maybe) {
				t.Fatalf("an aborted upload is not a job that may have been created: %v", err)
			}
			if requests > 1 || complete != 0 {
				t.Fatalf("%d requests, %d complete bodies; want at most 1 and none complete", requests, complete)
			}
		})
	}
	if uploadAborted(errors.New("bytes changed")) || uploadAborted(nil) {
		t.Error("an error that does not abort uploads aborts them")
	}
}

// startAborted starts a job with a file whose reader fails with readErr
// before its last byte, and returns how many requests the server got, how
// many of them had a complete body, and the client's error.
func startAborted(t *testing.T, readErr error) (requests, complete int, err error) {
	var mu sync.Mutex
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		mu.Lock()
		requests++
		if err == nil && int64(len(b)) == r.ContentLength && bytes.HasSuffix(b, []byte("--\r\n")) {
			complete++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, jobJSON)
	}))
	defer ts.Close()
	c, _ := newTestClient(t, ts.URL, nil)
	content := strings.Repeat("4000,1\n", 200000)
	_, err = c.StartWithFile(context.Background(), "1", FileUpload{
		Input: FileInput{PartName: "file", FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: "gl.csv"},
		Open: func() (io.ReadCloser, error) {
			return &abortingReader{r: strings.NewReader(content[:len(content)-1]), err: readErr}, nil
		},
		Size: int64(len(content)),
	})
	ts.Close()
	mu.Lock()
	defer mu.Unlock()
	return requests, complete, err
}

func TestEmulatorFaultsNeverDuplicateJobs(t *testing.T) {
	content := []byte("Account,Amount\n4000,1\n")
	upload := fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv")
	cases := []struct {
		name         string
		fault        emulator.Fault
		wantJobs     int
		wantErr      bool
		maybeCreated bool
	}{
		{"429 with Retry-After", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 2, Status: 429, RetryAfter: "0"}, 1, false, false},
		{"429 without Retry-After", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, Status: 429}, 1, false, false},
		{"503", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 3, Status: 503}, 1, false, false},
		{"502 is not retried", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, Status: 502}, 0, true, true},
		{"answer dropped after the job was created", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, DropAfterHandling: true}, 1, true, true},
		{"answer slower than the request timeout", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, Latency: 3 * time.Second}, -1, true, true},
		{"503 until retries run out", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Status: 503}, 0, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := startEmulator(t, emulator.Options{})
			srv.InjectFault(tc.fault)
			_, err := c.StartWithFile(context.Background(), emulator.GLActualsTemplateID, upload)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			var maybe *JobMaybeCreatedError
			if errors.As(err, &maybe) != tc.maybeCreated {
				t.Fatalf("err = %v (%T), maybeCreated want %v", err, err, tc.maybeCreated)
			}
			jobs, _ := srv.Stats()
			if jobs > 1 {
				t.Fatalf("%d jobs: a retry duplicated the import", jobs)
			}
			if tc.wantJobs >= 0 && jobs != tc.wantJobs {
				t.Fatalf("%d jobs, want %d", jobs, tc.wantJobs)
			}
		})
	}
}

func TestEmulatorFaultsOnReadsAreRetried(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{})
	ctx := context.Background()
	job, err := c.StartWithData(ctx, emulator.SalesVolumesTemplateID, DataUpload{Rows: [][]string{{"Product", "Units"}, {"P", "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []emulator.Fault{
		{Endpoint: emulator.EndpointGetJob, Count: 1, DropAfterHandling: true},
		{Endpoint: emulator.EndpointGetJob, Count: 2, Status: 502},
		{Endpoint: emulator.EndpointGetJob, Count: 1, Status: 504},
		{Endpoint: emulator.EndpointGetJob, Count: 1, Latency: 3 * time.Second},
	} {
		srv.ClearFaults()
		srv.InjectFault(f)
		before := srv.Requests(emulator.EndpointGetJob)
		got, err := c.GetJob(ctx, job.ID)
		if err != nil || got.ID != job.ID {
			t.Fatalf("%+v: %v", f, err)
		}
		if n := srv.Requests(emulator.EndpointGetJob) - before; n < 2 {
			t.Fatalf("%+v: %d requests, want a retry", f, n)
		}
	}
}
