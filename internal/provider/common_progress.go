package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// reportUpload logs the progress of a file's upload each interval until
// stop is called (etl.FileUpload.Reporting, which counts what up's upload
// sends from now on): bytes sent, rate and time left.
func reportUpload(ctx context.Context, up *preparedUpload, interval time.Duration) (stop func()) {
	if up == nil || up.opened == nil {
		return func() {}
	}
	name := up.opened.Name()
	f, stop := up.file.Reporting(interval, func(p etl.UploadProgress) {
		msg, fields := uploadProgress(p)
		fields["path"] = name
		tflog.Info(ctx, "uploading "+name+": "+msg, fields)
	})
	*up.file = f
	return stop
}

// uploadProgress says how far an upload is: a line and its fields.
func uploadProgress(p etl.UploadProgress) (string, map[string]any) {
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

// logWaiting logs at INFO that job jobID is still status after elapsed,
// waiting for it to finish (etl.JobWait.Waiting).
func logWaiting(ctx context.Context, jobID string, status etl.JobStatus, elapsed time.Duration) {
	elapsed = elapsed.Round(time.Second)
	tflog.Info(ctx, fmt.Sprintf("import job %s is %s after %s; waiting for it to finish", jobID, status, elapsed),
		map[string]any{"job_id": jobID, "status": string(status), "elapsed_s": int64(elapsed.Seconds())})
}
