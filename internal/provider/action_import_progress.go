package provider

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
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

// every sends msg() each interval when it differs from the last message
// it sent, until the returned stop is called; stop waits for the last
// send to finish, so that nothing is sent after Invoke returns.
func (p *actionProgress) every(interval time.Duration, msg func() string) (stop func()) {
	last := ""
	return every(interval, func(time.Duration) {
		if m := msg(); m != last {
			last = m
			p.send(m)
		}
	})
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
// it sends, then, while they are sent, how many have been; loadInputs
// calls it before each load, and the function it returns once the load is
// over.
func (p *actionProgress) reportLoad(l inputLoad) (done func()) {
	f := l.up.file
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

// reportSent counts the bytes of f that each attempt to send it reads,
// and reports them every uploadEvery until the returned stop is called.
func (p *actionProgress) reportSent(f *etl.FileUpload) (stop func()) {
	var sent atomic.Int64
	f.Open = countingOpen(f.Open, &sent)
	return p.every(p.uploadEvery, func() string {
		n := sent.Load()
		return fmt.Sprintf("Sent %d of %d bytes of %s (%d%%)", n, f.Size, f.Input.FileName, percent(n, f.Size))
	})
}

// countingOpen wraps an upload's Open so that n counts the bytes the
// current attempt has read; each (re)open, as on a retry, sets n back to
// zero.
func countingOpen(open func() (io.ReadCloser, error), n *atomic.Int64) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		n.Store(0)
		return localfile.Counted(rc, n), nil
	}
}

// percent returns n as a whole percentage of total, rounded down; 100
// for an empty total.
func percent(n, total int64) int64 {
	if total <= 0 {
		return 100
	}
	return n * 100 / total
}
