package etl

import (
	"context"
	"time"
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
	Seen func(JobStatus)
	// Waiting, when not nil, hears a status still in progress and the
	// time since the wait began, at most once every Every: the first time
	// an Every after the wait began.
	Waiting func(status JobStatus, elapsed time.Duration)
	Every   time.Duration
}

// WaitForJob polls the job's status (GetJobStatus) with backoff until it
// is final or ctx ends, and returns the last status seen: last until a
// read succeeds. A read that fails ends the wait with its error, ctx's
// when ctx ended.
func (c *Client) WaitForJob(ctx context.Context, jobID string, last JobStatus, w JobWait) (JobStatus, error) {
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
