package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Loading inputs, as the resource's Create and the action's Invoke both
// do: each input's upload prepared (its defaults filled, its file opened
// and hashed), the job created, each input loaded in the template's step
// order, and a failed load answered by cancelling the job (both
// etl.Client.LoadInputs), in the words of a diagnostic. What each then
// keeps (the resource: the job in state; the action: nothing) is its own.

// inputLoad is one input ready to send.
type inputLoad struct {
	key  string
	step importjob.Step
	up   *preparedUpload
}

// closeLoads closes the uploads of loads.
func closeLoads(loads []inputLoad) {
	for _, l := range loads {
		l.up.Close()
	}
}

// prepareInput fills the defaults of one input's file (in place) and
// prepares its upload: the file opened and hashed (its bytes are checked
// against that hash again while they are sent), inline content encoded,
// or rows as a CSV file. Diagnostics are about the top-level file block.
// wo holds the input's write-only content (file.content_wo). planned,
// when known, is the SHA-256 a file's bytes must have: the file is then
// not read first, and its bytes are checked against planned as they are
// sent (the resource passes a hash of the disk cache, the action the hash
// its invocation's check just took).
func prepareInput(ctx context.Context, in *keyedInput, wo writeOnlyData, planned types.String) (*preparedUpload, diag.Diagnostics) {
	if !in.Rows.IsNull() {
		rows, ok := rowsFrom(in.Rows)
		if !ok {
			var diags diag.Diagnostics
			addStillUnknown(&diags, path.Root("rows"), atApply)
			return nil, diags
		}
		d := etl.DataUpload{Rows: rows}
		f := d.CSVFile()
		return &preparedUpload{file: &f, sum: d.CSVSHA256()}, nil
	}
	// The top-level file's own apply: its defaults, its checks, its upload.
	s := importSpec{File: in.File, ContentSHA256: planned}
	up, diags := prepareFileUpload(ctx, &s, wo)
	in.File = s.File
	if diags.HasError() {
		up.Close()
		return nil, diags
	}
	return up, diags
}

// prepareInputLoads prepares the upload of every input of ins (whose keys
// resolveInputs resolved to steps of t), filling their files' defaults in
// place in ins; planned[key] is the SHA-256 the input's file must have
// (see prepareInput; null: none). It returns the loads in the template's
// step order and each input's entry of content_sha256; ok is false after
// an error (on the input's attribute), and the loads prepared so far are
// returned to be closed.
func prepareInputLoads(ctx context.Context, t importjob.Template, steps map[string]importjob.Step, ins []keyedInput, wo writeOnlyData,
	planned map[string]types.String, diags *diag.Diagnostics) (loads []inputLoad, entries []inputEntry, ok bool) {
	var problems diag.Diagnostics
	entries = make([]inputEntry, 0, len(ins))
	for i := range ins {
		in := &ins[i]
		up, d := prepareInput(ctx, in, wo.forInput(in.key), planned[in.key])
		problems.Append(inInput(in.key, d)...)
		if up == nil {
			continue
		}
		step := steps[in.key]
		loads = append(loads, inputLoad{key: in.key, step: step, up: up})
		entries = append(entries, inputEntry{Input: importjob.Input{InputID: step.InputID, Format: string(up.file.Input.FileFormat),
			Encoding: string(up.file.Input.FileEncoding), SHA256: up.sum, StepName: step.Name, Position: t.Position(step.InputID)}})
	}
	diags.Append(problems...)
	if problems.HasError() {
		return loads, nil, false
	}
	// Load in the template's step order.
	slices.SortStableFunc(loads, func(a, b inputLoad) int {
		return cmp.Compare(t.Position(a.step.InputID), t.Position(b.step.InputID))
	})
	return loads, entries, true
}

// createJob creates a job from the template, with no data (EDITING); nil
// after a failure, which is a diagnostic that says whether a job may
// exist.
func (r *jobRunner) createJob(ctx context.Context, templateID string, diags *diag.Diagnostics) *etl.Job {
	job, err := r.client.CreateJob(ctx, templateID)
	if err != nil {
		addCreateJobError(diags, templateID, err, r.wording.createAgain)
		return nil
	}
	logStarted(ctx, templateID, job)
	return job
}

// addCreateJobError: creating the job failed. A job created by a request
// whose answer was lost holds no data and is never submitted, so unlike a
// lost start (addStartError) it cannot import anything: trying again (as
// again says) is safe, and adopting it would adopt an empty job.
func addCreateJobError(diags *diag.Diagnostics, templateID string, err error, again string) {
	var maybe *etl.JobMaybeCreatedError
	if !errors.As(err, &maybe) {
		addNoJobError(diags, templateID, err)
		return
	}
	diags.AddError("Import job may have been created",
		fmt.Sprintf("Creating a job from template %s: the request reached the service but its answer was lost (%v). "+
			"A job may have been created; if so, it holds no data and was never submitted, so it never runs and the service expires it. "+
			"Nothing was loaded. %s", templateID, maybe.Err, again))
}

// loadInputs loads each of loads into the job created from templateID, in
// their order (the template's step order: prepareInputLoads), through
// etl.Client.LoadInputs. report, when not nil, is called before each
// load with its file, which it may replace, and the function it returns
// once the load is over (the action's progress). A failed load cancels the job (etl.LoadError) and adds the
// error on the input's key naming the step, the input and the job;
// loadInputs then returns false, and the job as the cancel left it (nil
// when the cancel failed).
func (r *jobRunner) loadInputs(ctx context.Context, templateID string, job *etl.Job, loads []inputLoad, report func(inputLoad, *etl.FileUpload) (done func()), diags *diag.Diagnostics) (*etl.Job, bool) {
	files := make([]etl.InputLoad, len(loads))
	for i, l := range loads {
		files[i] = etl.InputLoad{InputID: l.step.InputID, File: *l.up.file}
	}
	err := r.client.LoadInputs(ctx, job.ID, files, func(i int, f *etl.FileUpload) func() {
		l := loads[i]
		tflog.Debug(ctx, "loading job input", map[string]any{"job_id": job.ID, "input_id": l.step.InputID, "step": l.step.Name, "size": f.Size, "sha256": l.up.sum})
		if report == nil {
			return func() {}
		}
		return report(l, f)
	})
	var le *etl.LoadError
	if !errors.As(err, &le) {
		return job, true
	}
	return r.abandonLoad(ctx, templateID, job, loads[le.Index], le, diags), false
}

// abandonLoad says what a failed load (le) did: the load's error, named by
// the step, the input and the job, and whether the job was cancelled. It
// returns the cancelled job, nil when the cancel failed.
func (r *jobRunner) abandonLoad(ctx context.Context, templateID string, job *etl.Job, l inputLoad, le *etl.LoadError, diags *diag.Diagnostics) *etl.Job {
	outcome, status := "", job.Status
	if le.CancelErr != nil {
		outcome = fmt.Sprintf("Cancelling the job failed too (%s): it stays EDITING, is never submitted by Terraform, and the service expires it.", le.CancelErr)
	} else {
		status = le.Cancelled.Status
		outcome = fmt.Sprintf("The job was cancelled (status %s), so it never runs.", le.Cancelled.Status)
	}
	tflog.Info(ctx, "load of a job input failed; job cancelled", map[string]any{"job_id": job.ID, "input_id": l.step.InputID, "status": string(status)})
	var changed *localfile.ChangedError
	what := explain(le.Err)
	if errors.As(le.Err, &changed) {
		what = changed.Error() + ", so the service never received it whole."
	}
	diags.AddAttributeError(inputPath(l.key), fmt.Sprintf("Loading step %q into import job %s failed", l.step.Name, job.ID),
		fmt.Sprintf("The job %s was created from template %s, but loading step %q (input id %s, inputs key %q) failed: %s\n\n%s\n\n%s",
			job.ID, templateID, l.step.Name, l.step.InputID, l.key, what, outcome, r.wording.afterIncomplete))
	return le.Cancelled
}
