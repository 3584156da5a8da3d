package etl

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// How WaitForJob polls when JobWait leaves it zero.
const (
	// DefaultPollInitial is the first wait between two polls of a job's
	// status.
	DefaultPollInitial = 100 * time.Millisecond
	// DefaultPollMax caps the wait between two polls.
	DefaultPollMax = 10 * time.Second
)

// JobWait is how WaitForJob polls a job, and what it tells its caller
// while it waits.
type JobWait struct {
	// Initial is the first wait between two polls of the job's status,
	// doubled after every poll up to Max (zero: DefaultPollInitial and
	// DefaultPollMax).
	Initial, Max time.Duration
	// Seen, when not nil, hears every status read.
	Seen func(jobstatus.JobStatus)
	// Waiting, when not nil, hears a status still in progress and the
	// time since the wait began, at most once every Every: the first time
	// an Every after the wait began.
	Waiting func(status jobstatus.JobStatus, elapsed time.Duration)
	Every   time.Duration
}

// WaitForJob polls the job's status (GetJobStatus) with backoff until it
// is final or ctx ends, and returns the last status seen: last until a
// read succeeds. A read that fails ends the wait with its error, ctx's
// when ctx ended.
func (c *Client) WaitForJob(ctx context.Context, jobID string, last jobstatus.JobStatus, w JobWait) (jobstatus.JobStatus, error) {
	interval, most := positiveOr(w.Initial, DefaultPollInitial), positiveOr(w.Max, DefaultPollMax)
	start := time.Now()
	lastWaiting := start
	for {
		status, err := c.GetJobStatus(ctx, jobID)
		if err != nil {
			if ctx.Err() != nil {
				return last, ctx.Err()
			}
			return last, err
		}
		last = status
		if w.Seen != nil {
			w.Seen(status)
		}
		c.log(ctx, "trace", "polled import job", map[string]any{"job_id": jobID, "status": string(status)})
		if status.Final() {
			return status, nil
		}
		if now := time.Now(); w.Waiting != nil && now.Sub(lastWaiting) >= w.Every {
			lastWaiting = now
			w.Waiting(status, now.Sub(start))
		}
		t := time.NewTimer(interval)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return last, ctx.Err()
		}
		interval = min(2*interval, most)
	}
}

// positiveOr is d when it is above zero, else def.
func positiveOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// How far the upload of a FileUpload is, told every interval while it is
// sent (FileUpload.Reporting).

// UploadProgress is how far the current attempt to send a FileUpload is:
// the bytes its reader has handed over (Sent) of Size, Elapsed since the
// reporting began.
type UploadProgress struct {
	Sent, Size int64
	Elapsed    time.Duration
}

// Percent is Sent as a whole percentage of Size, rounded down; 100 for an
// empty upload.
func (p UploadProgress) Percent() int64 {
	if p.Size <= 0 {
		return 100
	}
	return p.Sent * 100 / p.Size
}

// Rate is the bytes sent a second so far.
func (p UploadProgress) Rate() float64 {
	return float64(p.Sent) / max(p.Elapsed.Seconds(), 1e-3)
}

// Left is how long the rest takes at Rate; false before anything is sent,
// and once everything is.
func (p UploadProgress) Left() (time.Duration, bool) {
	rate := p.Rate()
	if rate <= 0 || p.Sent >= p.Size {
		return 0, false
	}
	return time.Duration(float64(p.Size-p.Sent) / rate * float64(time.Second)), true
}

// Describe says how far the upload is, as a line and its log fields:
// bytes sent of the size, percent, time, rate, and time left once known,
// such as "512.0 MiB of 2.0 GiB sent (25%) in 4s, 128.0 MiB/s, about 12s
// left".
func (p UploadProgress) Describe() (string, map[string]any) {
	rate := p.Rate() // bytes per second
	fields := map[string]any{
		"sent_bytes": p.Sent, "total_bytes": p.Size, "elapsed_s": int64(p.Elapsed.Seconds()),
		"rate_mib_s": int64(rate / (1 << 20)),
	}
	msg := fmt.Sprintf("%s of %s sent", formatBytes(p.Sent), formatBytes(p.Size))
	if p.Size > 0 {
		msg += fmt.Sprintf(" (%d%%)", p.Percent())
	}
	msg += fmt.Sprintf(" in %s, %s/s", p.Elapsed.Round(time.Second), formatBytes(int64(rate)))
	if left, ok := p.Left(); ok {
		left = left.Round(time.Second)
		fields["eta_s"] = int64(left.Seconds())
		msg += fmt.Sprintf(", about %s left", left)
	}
	return msg, fields
}

// formatBytes writes n in binary units, such as "1.5 GiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// Reporting returns f with its Open counting the bytes each attempt reads
// (each open, as on a retry, counts from zero), and calls report, in a
// goroutine of its own, with how far the current attempt is every
// interval until the returned stop is called; stop waits for a report
// under way, and may be called more than once.
func (f FileUpload) Reporting(interval time.Duration, report func(UploadProgress)) (FileUpload, func()) {
	var sent atomic.Int64
	open := f.Open
	f.Open = func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		sent.Store(0)
		return countingReader{rc, &sent}, nil
	}
	size, start := f.Size, time.Now()
	t := time.NewTicker(interval)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				report(UploadProgress{Sent: sent.Load(), Size: size, Elapsed: now.Sub(start)})
			}
		}
	})
	var once sync.Once
	return f, func() {
		once.Do(func() {
			t.Stop()
			close(done)
			wg.Wait()
		})
	}
}

// countingReader counts into n the bytes read through it.
type countingReader struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (k int, err error) {
	k, err = c.ReadCloser.Read(p)
	c.n.Add(int64(k))
	return k, err
}
