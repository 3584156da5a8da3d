package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// actionProgress reports the action's steps to Terraform (SendProgress) and to
// the log. Every message is sent before Invoke returns: the framework's
// SendProgress must not be called after that.
type actionProgress struct {
	ctx  context.Context
	emit func(action.InvokeProgressEvent) // nil: log only
	// uploadEvery is how often the bytes of a file sent so far are
	// reported.
	uploadEvery time.Duration
	// facts are the counts of the file or rows sent, and inputFacts those
	// of each input by input id, from the reads that hashed them.
	facts      dataFacts
	inputFacts map[string]dataFacts
	// sent says what was sent so far, with its counts (sendSummary).
	sent []string
}

// newActionProgress returns a reporter that logs with ctx and sends each
// message to emit (resp.SendProgress), and the bytes of a file sent so
// far each uploadEvery; a nil emit only logs.
func newActionProgress(ctx context.Context, emit func(action.InvokeProgressEvent), uploadEvery time.Duration) *actionProgress {
	return &actionProgress{ctx: ctx, emit: emit, uploadEvery: uploadEvery}
}

// send logs msg at INFO and, when there is an emit, sends it to Terraform
// as a progress event.
func (p *actionProgress) send(msg string) {
	tflog.Info(p.ctx, msg)
	if p.emit != nil {
		p.emit(action.InvokeProgressEvent{Message: msg})
	}
}

// startReporting starts the job (r.start), saying first what is sent and,
// while a file is being sent, how many of its bytes have been.
func startReporting(ctx context.Context, r *jobRunner, templateID string, up *preparedUpload, p *actionProgress, diags *diag.Diagnostics) *etl.Job {
	if up.file == nil {
		what := p.counted("the rows (as a JSON body)", p.facts)
		p.send(fmt.Sprintf("Starting an import job from template %s with %s, SHA-256 %s", templateID, what, up.sum))
		return r.start(ctx, templateID, up, diags)
	}
	f := up.file
	facts := p.facts
	facts.SizeBytes = types.Int64Value(f.Size)
	what := p.counted("the file "+f.Input.FileName, facts)
	p.send(fmt.Sprintf("Starting an import job from template %s with %s, SHA-256 %s", templateID, what, up.sum))
	defer p.reportSent(f)()
	return r.start(ctx, templateID, up, diags)
}

// reportLoad says which step an input is loaded into and how many bytes
// it sends, then, while they are sent (f, its file), how many have been;
// loadInputs calls it before each load, and the function it returns once
// the load is over.
func (p *actionProgress) reportLoad(l inputLoad, f *etl.FileUpload) (done func()) {
	facts := p.inputFacts[l.step.InputID]
	facts.SizeBytes = types.Int64Value(f.Size)
	p.counted(fmt.Sprintf("step %q", l.step.Name), facts)
	p.send(fmt.Sprintf("Loading step %q (input %s): %s", l.step.Name, l.step.InputID, describeCounts(facts)))
	return p.reportSent(f)
}

// counted returns what with the data rows and bytes of facts, such as
// "the file gl.csv: 3 data rows, 120 bytes", and keeps it for the summary.
func (p *actionProgress) counted(what string, facts dataFacts) string {
	if c := describeCounts(facts); c != "" {
		what += ": " + c
	}
	p.sent = append(p.sent, what)
	return what
}

// sendSummary closes an invocation's progress by saying what job id was
// sent, with its data rows and bytes: "Import job 7 sent the file gl.csv:
// 3 data rows, 120 bytes".
func (p *actionProgress) sendSummary(id string) {
	if len(p.sent) > 0 {
		p.send(fmt.Sprintf("Import job %s sent %s", id, strings.Join(p.sent, "; ")))
	}
}

// reportSent reports the bytes of f that each attempt to send it reads
// (etl.FileUpload.Reporting) every uploadEvery, when they differ from the
// last message sent, until the returned stop is called; stop waits for
// the last send to finish, so that nothing is sent after Invoke returns.
func (p *actionProgress) reportSent(f *etl.FileUpload) (stop func()) {
	last, name := "", f.Input.FileName
	counted, stop := f.Reporting(p.uploadEvery, func(u etl.UploadProgress) {
		if m := fmt.Sprintf("Sent %d of %d bytes of %s (%d%%)", u.Sent, u.Size, name, u.Percent()); m != last {
			last = m
			p.send(m)
		}
	})
	*f = counted
	return stop
}
