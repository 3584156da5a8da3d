package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// How an import job runs, as the etl_import resource and the etl_import
// action both run it: its upload prepared (prepareUpload, preparedUpload),
// then the job started, submitted and waited for (jobRunner).

// jobRunner starts, submits and waits for an import job: the code the
// etl_import resource and the etl_import action share (start, submit and
// wait; with inputs, resolveInputs, createJob and loadInputs in
// common_inputs*.go). The upload comes prepared from an importSpec
// (prepareUpload); each step returns the job, and each caller records it
// its own way. The resource and the action differ only in what their
// diagnostics say (wording).
type jobRunner struct {
	client *etl.Client // its templates are read through its cache
	// tuning is how often it polls and reports, and the largest JSON body
	// of rows it sends.
	tuning tuning
	// wording ends the diagnostics: resourceWording or actionWording.
	wording runnerWording
	// progress, when set, hears each status seen while waiting (the
	// action's SendProgress).
	progress func(msg string)
}

// runnerWording is what a jobRunner's diagnostics say that depends on who
// runs the job: the resource keeps a job that failed after it started in
// state, tainted, and bounds waiting with timeouts.create; the action
// keeps nothing and bounds it with timeouts.invoke.
type runnerWording struct {
	// afterFailure ends the error of a job whose apply failed after it
	// started (a timeout, a failed poll or submit): the job may still run.
	afterFailure string
	// afterEnded ends the error of a job that ended in ERROR, CANCELLED
	// or EXPIRED: it imported nothing.
	afterEnded string
	// keptFailed ends the warning of such a job when keep_failed keeps
	// it (the resource's; the action keeps nothing).
	keptFailed string
	// afterIncomplete ends the error of a job whose inputs were not all
	// loaded.
	afterIncomplete string
	// timeoutSetting names the setting that bounds waiting.
	timeoutSetting string
	// maybeCreated says what to do when a start's answer was lost.
	maybeCreated string
	// createAgain ends the error of a create (inputs) whose answer was
	// lost.
	createAgain string
}

// statusSeen returns what waiting calls with each status it reads: a
// progress message when the status changes to one still in progress (the
// caller reports the final one); nil without progress.
func (r *jobRunner) statusSeen(jobID string, last jobstatus.JobStatus) func(jobstatus.JobStatus) {
	if r.progress == nil {
		return nil
	}
	return func(s jobstatus.JobStatus) {
		if s != last && !s.Final() {
			last = s
			r.progress(fmt.Sprintf("Import job %s is %s", jobID, s))
		}
	}
}

// start starts the job with the upload; nil after a failure, which is a
// diagnostic that says whether a job may exist.
func (r *jobRunner) start(ctx context.Context, templateID string, up *preparedUpload, diags *diag.Diagnostics) *etl.Job {
	var job *etl.Job
	var err error
	if up.file != nil {
		tflog.Debug(ctx, "starting import job with a file", map[string]any{"template_id": templateID, "file_name": up.file.Input.FileName, "size": up.file.Size, "sha256": up.sum, "rows_as_file": up.rowsAsFile})
		stop := reportUpload(ctx, up, r.tuning.orDefaults().progressEvery)
		job, err = r.client.StartWithFile(ctx, templateID, *up.file)
		stop()
	} else {
		tflog.Debug(ctx, "starting import job with rows", map[string]any{"template_id": templateID, "rows": len(up.data.Rows), "sha256": up.sum})
		job, err = r.client.StartWithData(ctx, templateID, *up.data)
	}
	var changed *localfile.ChangedError
	if errors.As(err, &changed) {
		diags.AddAttributeError(filePath("path"), summaryDataChanged,
			fmt.Sprintf("The data to import changed between plan and apply: %s. "+
				"The request was aborted before the file's last bytes, so the service never received a complete upload and no job was created: "+
				"data other than the planned data is never imported. Run terraform plan again.", changed))
		return nil
	}
	if err != nil {
		addStartError(diags, templateID, err, r.wording.maybeCreated)
		return nil
	}
	logStarted(ctx, templateID, job)
	return job
}

// submit submits the started job; it returns the job as the service
// then has it (nil when nothing new is known) and false after a failure.
// A job that runs or completed before it could be submitted needs no
// submitting; one that ended without importing is a failure that names it
// and its status.
func (r *jobRunner) submit(ctx context.Context, job *etl.Job, keepFailed bool, diags *diag.Diagnostics) (*etl.Job, bool) {
	submitted, err := r.client.SubmitConfirmed(ctx, job.ID)
	var ended *etl.JobEndedError
	switch {
	case errors.As(err, &ended):
		r.ended(keepFailed, fmt.Sprintf("Import job %s is %s", job.ID, ended.Job.Status),
			fmt.Sprintf("The job %s was started and its data sent, but before it could be submitted it ended with status %s: "+
				"the service did not import its data.", job.ID, ended.Job.Status), diags)
		return ended.Job, false
	case err != nil:
		diags.AddError(fmt.Sprintf("Submitting import job %s failed", job.ID),
			fmt.Sprintf("The job %s was started (status %s) and its data sent, but submitting it failed: %s\n\n%s",
				job.ID, job.Status, explain(err), r.wording.afterFailure))
		return nil, false
	}
	return submitted, true
}

// ended says that a job ended without importing (summary, detail): an
// error that ends with what the next apply does (afterEnded), or, with
// keepFailed (the resource's keep_failed), a warning that the job stays.
func (r *jobRunner) ended(keepFailed bool, summary, detail string, diags *diag.Diagnostics) {
	if keepFailed {
		diags.AddWarning(summary, detail+"\n\n"+r.wording.keptFailed)
		return
	}
	diags.AddError(summary, detail+"\n\n"+r.wording.afterEnded)
}

// logStarted logs, at INFO, the id of a job the service just created,
// before anything else is sent: with TF_LOG_PROVIDER=INFO, an apply that
// is killed still leaves the id to adopt (the runbook's case C).
func logStarted(ctx context.Context, templateID string, job *etl.Job) {
	tflog.Info(ctx, "started import job", map[string]any{"job_id": job.ID, "template_id": templateID, "status": string(job.Status)})
}

// wait polls the job until it is final (or the timeout), then reads it
// whole, and returns it as last known: as read then, else with the last
// status seen. Failures are diagnostics naming the job and status; a job
// that ended without importing is a warning when keepFailed (ended).
func (r *jobRunner) wait(ctx context.Context, job *etl.Job, timeout time.Duration, keepFailed bool, diags *diag.Diagnostics) *etl.Job {
	last := *job
	t := r.tuning.orDefaults() // its intervals, a progress message when the status changes, an INFO line every progressEvery
	status, err := r.client.WaitForJob(ctx, job.ID, job.Status, etl.JobWait{Initial: t.pollInitial, Max: t.pollMax, Seen: r.statusSeen(job.ID, job.Status),
		Every: t.progressEvery, Waiting: func(s jobstatus.JobStatus, elapsed time.Duration) { logWaiting(ctx, job.ID, s, elapsed) }})
	if status != "" {
		last.Status = status
	}
	// Refresh the dates, even after a timeout (with a short context of its own).
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if got, gerr := r.client.GetJob(rctx, job.ID); gerr == nil {
		last = *got
		if err == nil {
			status = got.Status
		}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError(fmt.Sprintf("Timed out waiting for import job %s", job.ID),
			fmt.Sprintf("The job %s was still %s after %s (%s). Raise %[4]s, or set wait_for_completion = false.\n\n%s",
				job.ID, last.Status, timeout, r.wording.timeoutSetting, r.wording.afterFailure))
	case err != nil:
		diags.AddError(fmt.Sprintf("Waiting for import job %s failed", job.ID),
			fmt.Sprintf("Polling the status of job %s (last status %s) failed: %s\n\n%s", job.ID, last.Status, explain(err), r.wording.afterFailure))
	case status.Failed():
		r.ended(keepFailed, fmt.Sprintf("Import job %s ended with status %s", job.ID, status),
			fmt.Sprintf("The job %s ended with status %s: the service did not import the data (the reason, such as a missing required column, "+
				"is in the job's details in the service's own application).", job.ID, status), diags)
	}
	return &last
}

// preparedUpload is what Create sends: a file or rows, and the SHA-256 of
// the bytes.
type preparedUpload struct {
	file *etl.FileUpload
	data *etl.DataUpload
	sum  string
	// at is the attribute that holds the data.
	at     path.Path
	opened *localfile.Opened // a file at path: its progress and identity; closed by Close
	// rowsAsFile: rows too large for start with data, sent as a CSV file.
	rowsAsFile bool
}

func (p *preparedUpload) Close() {
	if p != nil && p.opened != nil {
		p.opened.Close()
	}
}

// prepareUpload builds the upload of s from known values, filling the
// defaults of its file into s (resolveFile); wo holds the write-only data,
// and rows whose JSON body is over limit bytes are sent as a CSV file.
func prepareUpload(ctx context.Context, s *importSpec, wo writeOnlyData, limit int64) (*preparedUpload, diag.Diagnostics) {
	l, at := wo.rowsOf(*s)
	if l.IsNull() {
		return prepareFileUpload(ctx, s, wo)
	}
	var diags diag.Diagnostics
	rows, known := rowsFrom(l)
	if !known {
		addStillUnknown(&diags, at, atApply)
		return nil, diags
	}
	d := etl.DataUpload{Rows: rows}
	p := d.Payload(limit)
	if !p.AsFile { // rows as the JSON body of start with data
		return &preparedUpload{data: &d, sum: p.SHA256, at: at}, diags
	}
	if s.ContentSHA256.IsUnknown() || s.ContentSHA256.IsNull() { // else the plan warned
		diags.AddAttributeWarning(at, rowsAsFileSummary, rowsAsFileDetail(p.JSONSize, limit))
	}
	f := d.CSVFile()
	return &preparedUpload{file: &f, sum: p.SHA256, rowsAsFile: true, at: at}, diags
}

// prepareFileUpload builds the upload of the file of s (prepareUpload):
// it opens the file at path (checked while it is sent against the planned
// SHA-256, when there is one; see localfile.Open: a read that finds other
// bytes stops the upload for good, ChangedError.AbortsUpload), or encodes
// the inline content.
func prepareFileUpload(ctx context.Context, s *importSpec, wo writeOnlyData) (*preparedUpload, diag.Diagnostics) {
	resolved, diags := resolveFile(ctx, s)
	if diags.HasError() {
		return nil, diags
	}
	if resolved == nil {
		diags.AddError("Nothing to import", "Set exactly one of file and rows.")
		return nil, diags
	}
	f := wo.withContent(*resolved)
	input := etl.FileInput{
		PartName:     f.PartName.ValueString(),
		FileFormat:   flatfile.Format(f.Format.ValueString()),
		FileEncoding: flatfile.Encoding(f.Encoding.ValueString()),
		FileName:     f.Name.ValueString(),
	}
	if !f.Path.IsNull() {
		of, err := localfile.Open(f.Path.ValueString(), s.ContentSHA256.ValueString())
		if err != nil {
			addFileError(&diags, err)
			return nil, diags
		}
		return &preparedUpload{
			file:   &etl.FileUpload{Input: input, Open: of.Reader, Size: of.Size()},
			sum:    of.SHA256(),
			at:     filePath("path"),
			opened: of,
		}, diags
	}
	content, name := f.inline()
	b, err := etl.EncodeText(content.ValueString(), input.FileEncoding)
	if err != nil {
		addContentError(&diags, name, input.FileEncoding, err)
		return nil, diags
	}
	up := etl.BytesFile(input, b)
	return &preparedUpload{file: &up, sum: localfile.HashBytes(b), at: filePath(name)}, diags
}

// checkPlanned reports whether the bytes to send are the ones the plan
// hashed (planned is the plan's content_sha256, unknown when the plan
// could not read them); when not, nothing is sent and the error says so.
func (p *preparedUpload) checkPlanned(planned types.String, diags *diag.Diagnostics) bool {
	if !known(planned) || planned.ValueString() == p.sum {
		return true
	}
	diags.AddAttributeError(p.at, summaryDataChanged,
		fmt.Sprintf("The data to import changed between plan and apply: its SHA-256 is now %s, the plan has %s. "+
			"Nothing was sent, so that data other than the planned data is never imported. Run terraform plan again.", p.sum, planned.ValueString()))
	return false
}
