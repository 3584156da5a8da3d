package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

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
func (r *jobRunner) statusSeen(jobID string, last etl.JobStatus) func(etl.JobStatus) {
	if r.progress == nil {
		return nil
	}
	return func(s etl.JobStatus) {
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
