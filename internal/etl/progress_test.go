package etl

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// testWait polls every few milliseconds.
var testWait = JobWait{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}

func TestWaitForJob(t *testing.T) {
	ctx := context.Background()
	t.Run("completes", func(t *testing.T) {
		e, c := startEmulator(t, emulator.Options{RunTime: 100 * time.Millisecond})
		id := startGLJob(t, c, glRows)
		status, err := c.WaitForJob(ctx, id, jobstatus.StatusRunning, testWait)
		if err != nil || status != jobstatus.StatusCompleted {
			t.Fatalf("WaitForJob = %s, %v; want COMPLETED", status, err)
		}
		if n := e.Requests(emulator.EndpointGetJobStatus); n < 2 {
			t.Errorf("%d status polls, want several (the job ran 100ms)", n)
		}
	})
	t.Run("ends in error", func(t *testing.T) {
		_, c := startEmulator(t, emulator.Options{})
		status, err := c.WaitForJob(ctx, startGLJob(t, c, badGLRows), jobstatus.StatusRunning, testWait)
		if err != nil || status != jobstatus.StatusError {
			t.Fatalf("WaitForJob = %s, %v; want ERROR", status, err)
		}
	})
	t.Run("times out with the last status", func(t *testing.T) {
		_, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
		id := startGLJob(t, c, glRows)
		wctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
		defer cancel()
		status, err := c.WaitForJob(wctx, id, "", testWait)
		if !errors.Is(err, context.DeadlineExceeded) || status != jobstatus.StatusRunning {
			t.Fatalf("WaitForJob = %s, %v; want RUNNING and the deadline", status, err)
		}
	})
	t.Run("unknown job", func(t *testing.T) {
		_, c := startEmulator(t, emulator.Options{Instant: true})
		status, err := c.WaitForJob(ctx, "999999999999999999", jobstatus.StatusSubmitted, testWait)
		if !IsNotFound(err) || status != jobstatus.StatusSubmitted {
			t.Fatalf("WaitForJob = %s, %v; want the last status and a 404", status, err)
		}
	})
}

// TestWaitForJob_backoff: the wait between two polls doubles from Initial
// up to Max; zero takes DefaultPollInitial. (Each gap is at least its
// wait: a timer never fires early, a busy machine only adds to it.)
func TestWaitForJob_backoff(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		w    JobWait
		want []time.Duration // the least gap after each poll
	}{
		{JobWait{Initial: 10 * time.Millisecond, Max: 40 * time.Millisecond}, []time.Duration{10 * ms, 20 * ms, 40 * ms, 40 * ms, 40 * ms}},
		{JobWait{}, []time.Duration{100 * ms, 200 * ms}},
	} {
		_, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
		id := startGLJob(t, c, glRows)
		var at []time.Time
		tc.w.Seen = func(jobstatus.JobStatus) { at = append(at, time.Now()) }
		ctx, cancel := context.WithCancel(context.Background())
		tc.w.Waiting = func(jobstatus.JobStatus, time.Duration) {
			if len(at) > len(tc.want) {
				cancel()
			}
		}
		_, _ = c.WaitForJob(ctx, id, "", tc.w)
		cancel()
		if len(at) != len(tc.want)+1 {
			t.Fatalf("%+v: %d polls, want %d", tc.w, len(at), len(tc.want)+1)
		}
		for i, least := range tc.want {
			if gap := at[i+1].Sub(at[i]); gap < least {
				t.Errorf("%+v: %v between polls %d and %d, want at least %v", tc.w, gap, i+1, i+2, least)
			}
		}
	}
}

// TestWaitForJob_tells: Seen hears every status read, Waiting a status in
// progress at most once an Every, and the log a trace line a poll.
func TestWaitForJob_tells(t *testing.T) {
	srv := emulator.New(emulator.Options{RunTime: 300 * time.Millisecond})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, rec := newTestClient(t, ts.URL, func(cfg *Config) {
		cfg.TokenID, cfg.TokenSecret = emulator.DefaultTokenID, emulator.DefaultTokenSecret
	})
	id := startGLJob(t, c, glRows)
	var seen []jobstatus.JobStatus
	var waited []time.Duration
	w := testWait
	w.Seen = func(s jobstatus.JobStatus) { seen = append(seen, s) }
	w.Every = 100 * time.Millisecond
	w.Waiting = func(s jobstatus.JobStatus, elapsed time.Duration) {
		if s.Final() {
			t.Errorf("Waiting heard the final status %s", s)
		}
		waited = append(waited, elapsed)
	}
	if status, err := c.WaitForJob(context.Background(), id, jobstatus.StatusRunning, w); err != nil || status != jobstatus.StatusCompleted {
		t.Fatalf("WaitForJob = %s, %v", status, err)
	}
	if n := srv.Requests(emulator.EndpointGetJobStatus); len(seen) != n || seen[len(seen)-1] != jobstatus.StatusCompleted {
		t.Errorf("Seen heard %v, want each of the %d statuses read, COMPLETED last", seen, n)
	}
	if len(waited) < 1 || len(waited) > 3 || waited[0] < w.Every {
		t.Errorf("Waiting heard at %v in a 300 ms wait, want once or twice an Every (100 ms) apart, the first after one", waited)
	}
	for i := 1; i < len(waited); i++ {
		if waited[i]-waited[i-1] < w.Every {
			t.Errorf("Waiting heard at %v: less than an Every apart", waited)
		}
	}
	if n := strings.Count(rec.text(), "trace polled import job map[job_id:"+id); n != len(seen) {
		t.Errorf("%d trace lines of a poll, want %d:\n%s", n, len(seen), rec.text())
	}
}

// TestUploadProgress: the percentage, the rate and the time left.
func TestUploadProgress(t *testing.T) {
	for _, c := range []struct{ sent, size, want int64 }{{0, 10, 0}, {5, 10, 50}, {10, 10, 100}, {0, 0, 100}} {
		if got := (UploadProgress{Sent: c.sent, Size: c.size}).Percent(); got != c.want {
			t.Errorf("Percent of %d of %d = %d, want %d", c.sent, c.size, got, c.want)
		}
	}
	p := UploadProgress{Sent: 512 << 20, Size: 2 << 30, Elapsed: 4 * time.Second}
	if left, ok := p.Left(); p.Rate() != 128<<20 || !ok || left != 12*time.Second {
		t.Errorf("%+v: rate %v, left %v %v; want 128 MiB/s and 12s", p, p.Rate(), left, ok)
	}
	for _, p := range []UploadProgress{{Sent: 0, Size: 100, Elapsed: time.Second}, {Sent: 100, Size: 100, Elapsed: time.Second}} {
		if _, ok := p.Left(); ok {
			t.Errorf("%+v: a time left", p)
		}
	}
	if r := (UploadProgress{Sent: 10}).Rate(); r != 10/1e-3 {
		t.Errorf("rate at no time elapsed: %v", r)
	}
}

// TestReporting: each attempt counts from zero; report hears how far it
// is every interval, and nothing once stop returns.
func TestReporting(t *testing.T) {
	content := []byte("Account,Amount\n4000,1\n")
	var mu sync.Mutex
	var heard []UploadProgress
	f, stop := fileOf(content, flatfile.FormatCSV, flatfile.EncodingUTF8, "gl.csv").Reporting(time.Millisecond, func(p UploadProgress) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, p)
	})
	last := func() UploadProgress {
		mu.Lock()
		defer mu.Unlock()
		if len(heard) == 0 {
			return UploadProgress{Sent: -1}
		}
		return heard[len(heard)-1]
	}
	waitFor := func(sent int64) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); last().Sent != sent; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never heard %d bytes sent; last %+v", sent, last())
			}
		}
	}
	for attempt := 1; attempt <= 2; attempt++ {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(rc, make([]byte, 5)); err != nil {
			t.Fatal(err)
		}
		waitFor(5)
		if _, err := io.ReadAll(rc); err != nil {
			t.Fatal(err)
		}
		waitFor(22)
		rc.Close()
	}
	if p := last(); p.Size != int64(len(content)) || p.Elapsed <= 0 {
		t.Errorf("last heard %+v", p)
	}
	stop()
	stop() // twice is fine
	mu.Lock()
	n := len(heard)
	mu.Unlock()
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	after := len(heard) - n
	mu.Unlock()
	if after != 0 {
		t.Errorf("%d reports after stop", after)
	}

	boom := errors.New("boom")
	failing := FileUpload{Open: func() (io.ReadCloser, error) { return nil, boom }}
	g, stop := failing.Reporting(time.Hour, func(UploadProgress) {})
	defer stop()
	if _, err := g.Open(); !errors.Is(err, boom) {
		t.Errorf("open's error: %v", err)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 2 << 30: "2.0 GiB", 3 << 40: "3.0 TiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestUploadProgress_Describe(t *testing.T) {
	msg, fields := UploadProgress{Sent: 512 << 20, Size: 2 << 30, Elapsed: 4 * time.Second}.Describe()
	if msg != "512.0 MiB of 2.0 GiB sent (25%) in 4s, 128.0 MiB/s, about 12s left" {
		t.Errorf("line %q", msg)
	}
	if fields["sent_bytes"] != int64(512<<20) || fields["total_bytes"] != int64(2<<30) || fields["rate_mib_s"] != int64(128) || fields["eta_s"] != int64(12) {
		t.Errorf("fields %v", fields)
	}
	// Nothing sent yet: no estimate.
	if msg, fields := (UploadProgress{Sent: 0, Size: 100, Elapsed: time.Second}).Describe(); strings.Contains(msg, "left") || fields["eta_s"] != nil {
		t.Errorf("nothing sent: %q %v", msg, fields)
	}
}
