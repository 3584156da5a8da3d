package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Creating a job with inputs: create the job (EDITING), record it in
// state, load each input into it, and leave submitting and waiting to
// Create. A load that fails cancels the job, best effort, and the error
// returns with the job in state (tainted): no job is left untracked.

// inputLoad is one input ready to send.
type inputLoad struct {
	key  string
	step etl.Step
	up   *preparedUpload
}

// cancelTimeout bounds cancelling a job after a failed load, which runs
// even when the create's own time is up.
const cancelTimeout = 30 * time.Second

// createWithInputs creates the job and loads every input; it returns the
// job, or nil after an error (with the job in state if it was created).
func (r *importResource) createWithInputs(ctx context.Context, plan *importModel, wo writeOnlyData, resp *resource.CreateResponse) *etl.Job {
	loads, entries, ok := r.prepareInputs(ctx, plan, wo, &resp.Diagnostics)
	defer func() {
		for _, l := range loads {
			l.up.Close()
		}
	}()
	if !ok {
		return nil
	}
	templateID := plan.TemplateID.ValueString()
	tflog.Debug(ctx, "creating import job for inputs", map[string]any{"template_id": templateID, "inputs": len(loads), "sha256": plan.ContentSHA256.ValueString()})
	job, err := r.client.CreateJob(ctx, templateID)
	if err != nil {
		addCreateJobError(&resp.Diagnostics, templateID, err)
		return nil
	}
	// The job exists: record it before anything else can fail.
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	for _, l := range loads {
		tflog.Debug(ctx, "loading job input", map[string]any{"job_id": job.ID, "input_id": l.step.InputID, "step": l.step.StepName, "size": l.up.file.Size, "sha256": l.up.sum})
		if err := r.client.UploadJobFile(ctx, job.ID, l.step.InputID, *l.up.file); err != nil {
			r.abandon(ctx, plan, job, l, err, resp)
			return nil
		}
	}
	saveInputSteps(ctx, entries, resp.Private, &resp.Diagnostics)
	return job
}

// addCreateJobError: creating the job failed. A job created by a request
// whose answer was lost holds no data and is never submitted, so unlike a
// lost start (addStartError) it cannot import anything: applying again is
// safe, and adopting it would adopt an empty job.
func addCreateJobError(diags *diag.Diagnostics, templateID string, err error) {
	var maybe *etl.JobMaybeCreatedError
	if !errors.As(err, &maybe) {
		addStartError(diags, templateID, err, adoptAdvice)
		return
	}
	diags.AddError("Import job may have been created",
		fmt.Sprintf("Creating a job from template %s: the request reached the service but its answer was lost (%v). "+
			"A job may have been created; if so, it holds no data and was never submitted, so it never runs and the service expires it. "+
			"Nothing was loaded. Apply again to create the job and load the inputs.", templateID, maybe.Err))
}

// prepareInputs resolves the inputs against the template, fills their
// defaults into plan, opens (and hashes) every file and checks the hash
// over them all against the plan's, before anything is created. wo holds
// the inputs' write-only content.
func (r *importResource) prepareInputs(ctx context.Context, plan *importModel, wo writeOnlyData, diags *diag.Diagnostics) ([]inputLoad, []inputEntry, bool) {
	ins, isKnown, d := inputsFrom(ctx, plan.Inputs)
	diags.Append(d...)
	if !isKnown || diags.HasError() {
		diags.AddAttributeError(path.Root("inputs"), "Inputs not known", "inputs still has unknown values at apply: this is a bug in the provider; please report it.")
		return nil, nil, false
	}
	t, steps, d := r.resolveInputs(ctx, plan.TemplateID.ValueString(), ins)
	diags.Append(d...)
	if diags.HasError() {
		return nil, nil, false
	}
	var loads []inputLoad
	entries := make([]inputEntry, 0, len(ins))
	for i := range ins {
		up, d := prepareInput(ctx, &ins[i], wo.forInput(ins[i].key), r.hashCache)
		diags.Append(inInput(ins[i].key, d)...)
		if up == nil {
			continue
		}
		step := steps[ins[i].key]
		loads = append(loads, inputLoad{key: ins[i].key, step: step, up: up})
		entries = append(entries, inputEntry{InputID: step.InputID, Format: string(up.file.Input.FileFormat), Encoding: string(up.file.Input.FileEncoding), Sum: up.sum,
			StepName: step.StepName, Position: slices.IndexFunc(t.Steps, func(s etl.Step) bool { return s.InputID == step.InputID })})
	}
	if diags.HasError() {
		return loads, nil, false
	}
	// Load in the template's step order.
	order := make([]inputLoad, 0, len(loads))
	for _, s := range t.Steps {
		for _, l := range loads {
			if l.step.InputID == s.InputID {
				order = append(order, l)
			}
		}
	}
	m, d := inputsValue(ctx, ins)
	diags.Append(d...)
	plan.Inputs = m
	sum := inputsHash(entries)
	if known(plan.ContentSHA256) && plan.ContentSHA256.ValueString() != sum {
		diags.AddAttributeError(path.Root("inputs"), summaryDataChanged,
			fmt.Sprintf("The data to import changed between plan and apply: the SHA-256 over the inputs is now %s, the plan has %s "+
				"(an input's bytes, format or encoding changed, or the template's input ids). Nothing was sent and no job was created, "+
				"so that data other than the planned data is never imported. Run terraform plan again.", sum, plan.ContentSHA256.ValueString()))
		return order, nil, false
	}
	plan.ContentSHA256 = types.StringValue(sum)
	return order, entries, !diags.HasError()
}

// prepareInput fills the defaults of one input's file (in place) and
// prepares its upload: the file opened and hashed (its bytes are checked
// against that hash again while they are sent), inline content encoded,
// or rows as a CSV file. Diagnostics are about the top-level file block.
// wo holds the input's write-only content (file.content_wo). With cache,
// a file whose hash the disk cache holds for it as it is now is not read
// first: that hash is the one its bytes are checked against as they are
// sent (the plan took it, or trusted it, in the same way).
func prepareInput(ctx context.Context, in *keyedInput, wo writeOnlyData, cache bool) (*preparedUpload, diag.Diagnostics) {
	if !in.Rows.IsNull() {
		rows, ok := rowsFrom(in.Rows)
		if !ok {
			var diags diag.Diagnostics
			diags.AddError("Rows not known", "rows still has unknown values at apply: this is a bug in the provider; please report it.")
			return nil, diags
		}
		f := etl.DataUpload{Rows: rows}.CSVFile()
		return &preparedUpload{file: &f, sum: hashRowsCSV(rows)}, nil
	}
	// The top-level file's own apply: its defaults, its checks, its upload.
	m := importModel{File: in.File, ContentSHA256: cachedFileSHA256(ctx, in.File, cache)}
	up, diags := prepareUpload(ctx, &m, wo)
	in.File = m.File
	if diags.HasError() {
		up.Close()
		return nil, diags
	}
	return up, diags
}

// abandon handles a failed load: the job is cancelled (best effort, with
// time of its own), its status recorded in state, and the error names the
// step, the input and the job.
func (r *importResource) abandon(ctx context.Context, plan *importModel, job *etl.Job, l inputLoad, loadErr error, resp *resource.CreateResponse) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer cancel()
	outcome := ""
	if cancelled, err := r.client.CancelJob(cctx, job.ID); err != nil {
		outcome = fmt.Sprintf("Cancelling the job failed too (%s): it stays EDITING, is never submitted by Terraform, and the service expires it.", err)
	} else {
		plan.setJob(cancelled)
		outcome = fmt.Sprintf("The job was cancelled (status %s), so it never runs.", cancelled.Status)
	}
	tflog.Info(ctx, "load of a job input failed; job cancelled", map[string]any{"job_id": job.ID, "input_id": l.step.InputID, "status": plan.Status.ValueString()})
	// The job never received all its data: no content_sha256, so that no
	// later apply resumes it (handsOver).
	plan.ContentSHA256 = types.StringNull()
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	var changed *localfile.ChangedError
	what := fmt.Sprintf("%s.%s", loadErr, hintOf(loadErr))
	if errors.As(loadErr, &changed) {
		what = changed.Error() + ", so the service never received it whole."
	}
	resp.Diagnostics.AddAttributeError(inputPath(l.key), fmt.Sprintf("Loading step %q into import job %s failed", l.step.StepName, job.ID),
		fmt.Sprintf("The job %s was created from template %s, but loading step %q (input id %s, inputs key %q) failed: %s\n\n%s\n\n%s",
			job.ID, plan.TemplateID.ValueString(), l.step.StepName, l.step.InputID, l.key, what, outcome, keptIncomplete))
}

// fillInputs fills, for an update in place, what the plan left unknown:
// the defaults of the inputs' files (by the top-level file's rule,
// resolveFile) and content_sha256. wo holds the write-only data.
func (r *importResource) fillInputs(ctx context.Context, plan *importModel, wo writeOnlyData) diag.Diagnostics {
	ins, isKnown, diags := inputsFrom(ctx, plan.Inputs)
	if !isKnown || diags.HasError() {
		return diags
	}
	for i := range ins {
		if ins[i].File.IsNull() {
			continue
		}
		m := importModel{File: ins[i].File}
		_, d := resolveFile(ctx, &m)
		diags.Append(inInput(ins[i].key, d)...)
		ins[i].File = m.File
	}
	if diags.HasError() {
		return diags
	}
	v, d := inputsValue(ctx, ins)
	diags.Append(d...)
	plan.Inputs = v
	if plan.ContentSHA256.IsUnknown() {
		sum, d := r.planInputsHash(ctx, *plan, true, wo, nil)
		diags.Append(d...)
		plan.ContentSHA256 = sum
	}
	return diags
}

// keptIncomplete ends the error of a job whose inputs were not all loaded.
const keptIncomplete = "The job stays in the Terraform state, marked tainted. It never received all its data, so Terraform never submits it: " +
	"the next terraform apply replaces it with a new job that loads every input. Destroying it never deletes imported data."
