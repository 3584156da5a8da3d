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
		msg, fields := p.Describe()
		fields["path"] = name
		tflog.Info(ctx, "uploading "+name+": "+msg, fields)
	})
	*up.file = f
	return stop
}

// logWaiting logs at INFO that job jobID is still status after elapsed,
// waiting for it to finish (etl.JobWait.Waiting).
func logWaiting(ctx context.Context, jobID string, status etl.JobStatus, elapsed time.Duration) {
	elapsed = elapsed.Round(time.Second)
	tflog.Info(ctx, fmt.Sprintf("import job %s is %s after %s; waiting for it to finish", jobID, status, elapsed),
		map[string]any{"job_id": jobID, "status": string(status), "elapsed_s": int64(elapsed.Seconds())})
}
