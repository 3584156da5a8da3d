package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The inputs of a job created from a template with several input steps,
// as the etl_import resource and the etl_import action both take them:
// their model and how they are read; the file block's rules and
// diagnostics reused for each input's file; planning them (keys resolved
// to the template's steps, each input hashed and checked as the top-level
// file is, the rules of submit with inputs); and loading them (each
// input's upload prepared, the job created, each input loaded in the
// template's step order through etl.Client.LoadInputs, a failed load
// answered by cancelling the job). What each then keeps (the resource:
// the job in state; the action: nothing) is its own.

// inputModel is one entry of inputs.
type inputModel struct {
	File types.Object `tfsdk:"file"`
	Rows types.List   `tfsdk:"rows"`
	// The input's data facts (inputsAttribute); null in
	// the action's inputs, which have none.
	dataFacts
}

// inputAttrTypes are the attributes of one entry of inputs, its file the
// resource's file block (the action's, which has no content_wo, is
// converted to it: importActionModel.specInputs).
var inputAttrTypes = map[string]attr.Type{
	"file":       types.ObjectType{AttrTypes: fileAttrTypes},
	"rows":       types.ListType{ElemType: types.ListType{ElemType: types.StringType}},
	"columns":    types.ListType{ElemType: types.StringType},
	"row_count":  types.Int64Type,
	"size_bytes": types.Int64Type,
}

// keyedInput is one entry of inputs with its key.
type keyedInput struct {
	key string
	inputModel
}

// inputsFrom reads the known entries of inputs in key order; all is false
// when the map or one of its entries is unknown.
func inputsFrom(ctx context.Context, m types.Map) (ins []keyedInput, all bool, diags diag.Diagnostics) {
	elems := m.Elements()
	all = !m.IsNull() && !m.IsUnknown()
	for _, k := range slices.Sorted(maps.Keys(elems)) {
		var in inputModel
		obj, _ := elems[k].(types.Object)
		if d := obj.As(ctx, &in, basetypes.ObjectAsOptions{}); obj.IsUnknown() || d.HasError() {
			all = false
			diags.Append(d...)
			continue
		}
		ins = append(ins, keyedInput{key: k, inputModel: in})
	}
	return ins, all, diags
}

// inputsValue is the inputs map of ins.
func inputsValue(ctx context.Context, ins []keyedInput) (types.Map, diag.Diagnostics) {
	out := make(map[string]inputModel, len(ins))
	for _, in := range ins {
		if in.Columns.ElementType(ctx) == nil { // a model built without facts
			in.Columns = types.ListNull(types.StringType)
		}
		out[in.key] = in.inputModel
	}
	return types.MapValueFrom(ctx, types.ObjectType{AttrTypes: inputAttrTypes}, out)
}

// inputPath is the path of the input keyed key.
func inputPath(key string) path.Path { return path.Root("inputs").AtMapKey(key) }

// inInput moves diagnostics about the top-level file block (produced by
// the file block's own checks, run on the input's file) to the input's
// file block, and says which input they are about.
func inInput(key string, diags diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		detail := fmt.Sprintf("In inputs[%q]: %s", key, d.Detail())
		at := inputPath(key)
		if wp, ok := d.(diag.DiagnosticWithPath); ok && len(wp.Path().Steps()) > 0 {
			for _, s := range wp.Path().Steps() {
				if name, ok := s.(path.PathStepAttributeName); ok {
					at = at.AtName(string(name))
				}
			}
		}
		switch _, isOutside := d.(outsideError); {
		case isOutside:
			addOutsideError(&out, at, d.Summary(), detail)
		case d.Severity() == diag.SeverityError:
			out.AddAttributeError(at, d.Summary(), detail)
		default:
			out.AddAttributeWarning(at, d.Summary(), detail)
		}
	}
	return out
}

// checkInputFiles runs the file block's configuration check
// (checkFileConfig) on the file of every input of m (the resource's
// inputs type) whose values are known; entries still unknown are skipped.
func checkInputFiles(ctx context.Context, m types.Map) diag.Diagnostics {
	var diags diag.Diagnostics
	ins, _, _ := inputsFrom(ctx, m)
	for _, in := range ins {
		if f, d := fileFrom(ctx, in.File); f != nil && !d.HasError() {
			diags.Append(inInput(in.key, checkFileConfig(*f))...)
		}
	}
	return diags
}

// resolveInputs reads the template (through the client's cache) and resolves the keys
// of ins to its steps (importjob.Template.ResolveKeys); errors are on the
// template_id or on the key, and lie outside the configuration
// (outsideError): the template is the service's.
func (r *jobRunner) resolveInputs(ctx context.Context, templateID string, ins []keyedInput) (importjob.Template, map[string]importjob.Step, diag.Diagnostics) {
	var diags diag.Diagnostics
	et, err := r.client.CachedTemplate(ctx, templateID)
	if err != nil {
		addOutsideError(&diags, path.Root("template_id"), fmt.Sprintf("Reading template %s failed", templateID),
			"The keys of inputs are resolved against the template's steps, read from the service: "+explain(err))
		return importjob.Template{}, nil, diags
	}
	keys := make([]string, len(ins))
	for i, in := range ins {
		keys[i] = in.key
	}
	t := templateOf(et)
	steps, problems := t.ResolveKeys(keys)
	for _, p := range problems {
		addOutsideError(&diags, inputPath(p.Key), keyProblemSummaries[p.Kind], p.Detail)
	}
	return t, steps, diags
}

// keyProblemSummaries titles each problem of a key of inputs.
var keyProblemSummaries = map[importjob.KeyProblemKind]string{
	importjob.KeyUnknown:   "Unknown input step",
	importjob.KeyNotUnique: "Step name not unique",
	importjob.KeyTwice:     "Input given twice",
}

// planInputs checks ins as a plan does: their keys resolved against the
// template templateID (resolveInputs), with a warning for the steps no
// input loads (importjob.Template.NotLoaded), and each input hashed and
// its file checked as the top-level file is (planInputEntries). Without a
// client (the provider's settings unknown during this plan) or a known
// templateID, the keys are not resolved but the data is still checked.
// The entries are nil then, as when a value is unknown or an input has a
// problem. wo and hc are as for planInputEntries.
func (r *jobRunner) planInputs(ctx context.Context, templateID types.String, ins []keyedInput, wo writeOnlyData, hc *hashCache) ([]inputEntry, diag.Diagnostics) {
	var t importjob.Template
	var steps map[string]importjob.Step
	var diags diag.Diagnostics
	resolve := r.client != nil && known(templateID)
	if resolve {
		if t, steps, diags = r.resolveInputs(ctx, templateID.ValueString(), ins); diags.HasError() {
			return nil, diags
		}
		if detail := t.NotLoaded(steps); detail != "" {
			diags.AddAttributeWarning(path.Root("inputs"), "Template steps without input", detail)
		}
	}
	entries, d := planInputEntries(ctx, t, steps, ins, wo, hc)
	diags.Append(d...)
	if !resolve {
		return nil, diags
	}
	return entries, diags
}

// planInputEntries hashes each input of ins (whose keys resolveInputs
// resolved to steps of t), checking a file in the same read as the
// top-level file is checked; each problem is on the input's attribute.
// entries[i] is ins[i]'s, with the step it loads; nil when a value it
// needs is unknown or an input has a problem. wo holds the inputs'
// write-only content (the resource's); hc the hash cache (nil: every file
// is read).
func planInputEntries(ctx context.Context, t importjob.Template, steps map[string]importjob.Step, ins []keyedInput, wo writeOnlyData, hc *hashCache) ([]inputEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	entries := make([]inputEntry, 0, len(ins))
	for _, in := range ins {
		e, d := planInputEntry(ctx, in, steps[in.key], wo.forInput(in.key), hc)
		diags.Append(inInput(in.key, d)...)
		if e != nil {
			e.StepName, e.Position = steps[in.key].Name, t.Position(e.InputID)
			entries = append(entries, *e)
		}
	}
	if diags.HasError() || len(entries) < len(ins) {
		return nil, diags
	}
	return entries, diags
}

// checkSubmitWithInputs: a job with inputs runs only once submitted. An
// explicit submit = false (submit as configured) is a warning; waiting on
// a job that is never submitted could only time out, so that is an error.
func checkSubmitWithInputs(submit, wait types.Bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if submit.IsNull() || submit.IsUnknown() || submit.ValueBool() {
		return diags
	}
	if wait.ValueBool() {
		diags.AddAttributeError(path.Root("wait_for_completion"), "Waiting on a job that is not submitted",
			"With inputs and submit = false, the job is created and loaded but never submitted, so it never runs: waiting for it to finish could only time out. "+
				"Remove submit = false (with inputs, submit defaults to true), or set wait_for_completion = false.")
		return diags
	}
	diags.AddAttributeWarning(path.Root("submit"), "Job will not be submitted",
		"With submit = false, the job is created and its inputs are loaded, but it is not submitted: it stays EDITING, never runs, "+
			"and the service expires it after a while. Set submit = true (the default with inputs) to run it.")
	return diags
}

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
