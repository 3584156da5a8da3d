package etl

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
