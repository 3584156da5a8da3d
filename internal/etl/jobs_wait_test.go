package etl

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// testWait polls every few milliseconds.
var testWait = JobWait{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond}

func TestWaitForJob(t *testing.T) {
	ctx := context.Background()
	t.Run("completes", func(t *testing.T) {
		e, c := startEmulator(t, emulator.Options{RunTime: 100 * time.Millisecond})
		id := startGLJob(t, c, glRows)
		status, err := c.WaitForJob(ctx, id, StatusRunning, testWait)
		if err != nil || status != StatusCompleted {
			t.Fatalf("WaitForJob = %s, %v; want COMPLETED", status, err)
		}
		if n := e.Requests(emulator.EndpointGetJobStatus); n < 2 {
			t.Errorf("%d status polls, want several (the job ran 100ms)", n)
		}
	})
	t.Run("ends in error", func(t *testing.T) {
		_, c := startEmulator(t, emulator.Options{})
		status, err := c.WaitForJob(ctx, startGLJob(t, c, badGLRows), StatusRunning, testWait)
		if err != nil || status != StatusError {
			t.Fatalf("WaitForJob = %s, %v; want ERROR", status, err)
		}
	})
	t.Run("times out with the last status", func(t *testing.T) {
		_, c := startEmulator(t, emulator.Options{RunTime: time.Hour})
		id := startGLJob(t, c, glRows)
		wctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
		defer cancel()
		status, err := c.WaitForJob(wctx, id, "", testWait)
		if !errors.Is(err, context.DeadlineExceeded) || status != StatusRunning {
			t.Fatalf("WaitForJob = %s, %v; want RUNNING and the deadline", status, err)
		}
	})
	t.Run("unknown job", func(t *testing.T) {
		_, c := startEmulator(t, emulator.Options{Instant: true})
		status, err := c.WaitForJob(ctx, "999999999999999999", StatusSubmitted, testWait)
		if !IsNotFound(err) || status != StatusSubmitted {
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
		tc.w.Seen = func(JobStatus) { at = append(at, time.Now()) }
		ctx, cancel := context.WithCancel(context.Background())
		tc.w.Waiting = func(JobStatus, time.Duration) {
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
	var seen []JobStatus
	var waited []time.Duration
	w := testWait
	w.Seen = func(s JobStatus) { seen = append(seen, s) }
	w.Every = 100 * time.Millisecond
	w.Waiting = func(s JobStatus, elapsed time.Duration) {
		if s.Final() {
			t.Errorf("Waiting heard the final status %s", s)
		}
		waited = append(waited, elapsed)
	}
	if status, err := c.WaitForJob(context.Background(), id, StatusRunning, w); err != nil || status != StatusCompleted {
		t.Fatalf("WaitForJob = %s, %v", status, err)
	}
	if n := srv.Requests(emulator.EndpointGetJobStatus); len(seen) != n || seen[len(seen)-1] != StatusCompleted {
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
