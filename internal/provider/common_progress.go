package provider

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// every calls report with the time elapsed each interval, in a goroutine
// of its own, until the returned stop is called; stop waits for a report
// under way, and may be called more than once.
func every(interval time.Duration, report func(elapsed time.Duration)) (stop func()) {
	start := time.Now()
	t := time.NewTicker(interval)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				report(now.Sub(start))
			}
		}
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			t.Stop()
			close(done)
			wg.Wait()
		})
	}
}

// reportUpload logs the progress of a file's upload each interval until
// stop is called: bytes sent, rate and time left.
func reportUpload(ctx context.Context, up *preparedUpload, interval time.Duration) (stop func()) {
	if up == nil || up.opened == nil {
		return func() {}
	}
	of := up.opened
	name := of.Name()
	return every(interval, func(elapsed time.Duration) {
		msg, fields := uploadProgress(of.Sent(), of.Size(), elapsed)
		fields["path"] = name
		tflog.Info(ctx, "uploading "+name+": "+msg, fields)
	})
}

// uploadProgress says how far an upload of total bytes is after elapsed
// with sent bytes handed over: a line and its fields.
func uploadProgress(sent, total int64, elapsed time.Duration) (string, map[string]any) {
	rate := float64(sent) / max(elapsed.Seconds(), 1e-3) // bytes per second
	fields := map[string]any{
		"sent_bytes": sent, "total_bytes": total, "elapsed_s": int64(elapsed.Seconds()),
		"rate_mib_s": int64(rate / (1 << 20)),
	}
	msg := fmt.Sprintf("%s of %s sent", formatBytes(sent), formatBytes(total))
	if total > 0 {
		msg += fmt.Sprintf(" (%d%%)", sent*100/total)
	}
	msg += fmt.Sprintf(" in %s, %s/s", elapsed.Round(time.Second), formatBytes(int64(rate)))
	if rate > 0 && sent < total {
		left := time.Duration(float64(total-sent) / rate * float64(time.Second)).Round(time.Second)
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

// logWaiting logs at INFO that job jobID is still status after elapsed,
// waiting for it to finish (etl.JobWait.Waiting).
func logWaiting(ctx context.Context, jobID string, status etl.JobStatus, elapsed time.Duration) {
	elapsed = elapsed.Round(time.Second)
	tflog.Info(ctx, fmt.Sprintf("import job %s is %s after %s; waiting for it to finish", jobID, status, elapsed),
		map[string]any{"job_id": jobID, "status": string(status), "elapsed_s": int64(elapsed.Seconds())})
}
