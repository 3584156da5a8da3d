package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

var (
	_ action.ActionWithConfigure        = (*importAction)(nil)
	_ action.ActionWithConfigValidators = (*importAction)(nil)
	_ action.ActionWithValidateConfig   = (*importAction)(nil)
	_ action.ActionWithModifyPlan       = (*importAction)(nil)
)

// newImportAction returns an unconfigured etl_import action; the
// provider's Actions lists it.
func newImportAction() action.Action { return &importAction{} }

// importAction is the etl_import action: each invocation starts one new
// job with the resource's code (prepareUpload and a jobRunner; with
// inputs, the planning and loading the resource shares in
// common_inputs.go), and reports its progress. It keeps nothing.
type importAction struct{ runnerData }

// actionWording is what the action's diagnostics say of a job that failed
// after it started: the action keeps nothing (its jobRunner's
// runnerWording).
var actionWording = runnerWording{
	afterFailure: actionKeepsNothing,
	afterEnded:   actionKeepsNothing,
	afterIncomplete: "The etl_import action keeps nothing in state. The job never received all its data, so it is never submitted: " +
		"it stays on the service as it is (look it up by its id in the service's own application). Invoking the action again starts a new job that loads every input.",
	timeoutSetting: "timeouts.invoke",
	maybeCreated: "Look for the job in the service's own application before invoking the action again: " +
		"if it exists, invoking again would import the data a second time. If it does not, invoke the action again.",
	createAgain: "Invoke the action again to create a job and load the inputs.",
}

// actionKeepsNothing ends the action's error of a job that failed after it
// started.
const actionKeepsNothing = "The etl_import action keeps nothing in state: the job stays on the service as it is " +
	"(look it up by its id in the service's own application). Invoking the action again starts a new job."

// Metadata names the action etl_import.
func (a *importAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_import"
}

// Configure takes the client, and what runs jobs with it, that the
// provider handed over (ActionData). The client stays nil while the
// provider's settings are unknown, and Invoke then reports the provider as
// not configured.
func (a *importAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.runnerData = providerData[runnerData](req.ProviderData, &resp.Diagnostics)
}

// ConfigValidators requires exactly one of file, rows and inputs. It is
// one of the action's checks before it runs, which are the resource's: the
// same attribute validators (actionAttribute), this rule, the file block's
// cross-attribute checks (ValidateConfig), and at plan the check of the
// file's bytes (a missing file, a bad encoding, ragged rows) that the
// resource makes while it hashes them, and with inputs the resolution of
// their keys (ModifyPlan).
func (a *importAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{
		actionvalidator.ExactlyOneOf(path.MatchRoot("file"), path.MatchRoot("rows"), path.MatchRoot("inputs")),
	}
}

// ValidateConfig reports, when the values are known, a file (top-level or
// an input's) whose format cannot be derived and inline content that the
// encoding cannot represent.
func (a *importAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var cfg importActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	inputs, diags := cfg.specInputs(ctx)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(checkInputFiles(ctx, inputs)...)
	f, diags := configuredFile(ctx, cfg.File)
	resp.Diagnostics.Append(diags...)
	if f == nil || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(checkFileConfig(*f)...)
}

// ModifyPlan checks the data as the resource's plan does: it reads and
// hashes the file (or encodes the content or the rows) and reports a
// problem on its attribute; with inputs, the choice of submit, and each
// input as the resource's plan checks it (jobRunner.planInputs: without a
// client or a known template_id, its data alone). Terraform calls it at
// plan, and again at apply with the values that were unknown at plan.
func (a *importAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var cfg importActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s, diags := cfg.spec(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !s.Inputs.IsNull() {
		resp.Diagnostics.Append(checkSubmitWithInputs(cfg.Submit, cfg.WaitForCompletion)...)
		ins, all, diags := inputsFrom(ctx, s.Inputs)
		if all && !diags.HasError() {
			_, diags = a.runner(nil).planInputs(ctx, s.TemplateID, ins, writeOnlyData{}, nil)
		}
		resp.Diagnostics.Append(diags...)
		return
	}
	_, diags = planContentHash(ctx, s, writeOnlyData{}, nil, a.tuning.bodyLimit())
	resp.Diagnostics.Append(diags...)
}

// Invoke starts a new job with the configured data (start; with inputs,
// creates it and loads each input, startInputs), then submits it and
// waits for it as configured (finish), all within timeouts.invoke,
// reporting each step. A job that fails fails the invocation with its id
// and status.
func (a *importAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg importActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	timeout, d := cfg.timeout(ctx)
	resp.Diagnostics.Append(d...)
	s, d := cfg.spec(ctx)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	p := newActionProgress(ctx, resp.SendProgress, a.tuning.orDefaults().uploadProgressEvery)
	r := a.runner(p)
	start := a.start
	if !s.Inputs.IsNull() {
		start = a.startInputs
	}
	if job := start(ctx, r, s, p, &resp.Diagnostics); job != nil {
		a.finish(ctx, r, s, job, timeout, p, &resp.Diagnostics)
	}
}

// runner returns the jobRunner of one invocation (the action's wording),
// reporting each status it waits through to p (nil: none).
func (a *importAction) runner(p *actionProgress) *jobRunner {
	r := &jobRunner{client: a.client, tuning: a.tuning, wording: actionWording}
	if p != nil {
		r.progress = p.send
	}
	return r
}

// start starts the job with the file or rows of s. The data is checked
// again first, as a plan checks it (the file may have changed since the
// plan), and its hash is the one the send verifies; a file's rows are
// counted in that same read (hc.counted). It says what is sent and, while
// a file is sent, how many of its bytes have been; nil after a failure.
func (a *importAction) start(ctx context.Context, r *jobRunner, s importSpec, p *actionProgress, diags *diag.Diagnostics) *etl.Job {
	hc, limit := &hashCache{}, a.tuning.bodyLimit()
	sum, d := planContentHash(ctx, s, writeOnlyData{}, hc, limit)
	diags.Append(d...)
	if diags.HasError() {
		return nil
	}
	s.ContentSHA256 = sum
	var factDiags diag.Diagnostics // the hash reported the data's problems
	facts := planDataFacts(ctx, s, writeOnlyData{}, hc.counted, limit, &factDiags)
	up, d := prepareUpload(ctx, &s, writeOnlyData{}, limit)
	diags.Append(d...)
	if diags.HasError() {
		return nil
	}
	defer up.Close()
	templateID, what, stop := s.TemplateID.ValueString(), "the rows (as a JSON body)", func() {}
	if up.file != nil {
		what = "the file " + up.file.Input.FileName
		facts.SizeBytes = types.Int64Value(up.file.Size)
	}
	p.send(fmt.Sprintf("Starting an import job from template %s with %s, SHA-256 %s", templateID, p.counted(what, facts), up.sum))
	if up.file != nil {
		stop = p.reportSent(up.file)
	}
	job := r.start(ctx, templateID, up, diags)
	stop()
	if job != nil {
		p.send(fmt.Sprintf("Import job %s started: %s", job.ID, job.Status))
	}
	return job
}

// startInputs creates the job for the inputs of s and loads each. The
// inputs are checked again first, as a plan checks them (the files may
// have changed since the plan), and the hash each file has now is the one
// its bytes are checked against as they are sent; each is counted in
// that read. Each input is loaded in the template's step order with its
// progress; a failed load cancels the job and fails the invocation (nil).
func (a *importAction) startInputs(ctx context.Context, r *jobRunner, s importSpec, p *actionProgress, diags *diag.Diagnostics) *etl.Job {
	ins, all, d := inputsFrom(ctx, s.Inputs)
	diags.Append(d...)
	if !all || diags.HasError() {
		addStillUnknown(diags, path.Root("inputs"), whenInvoked)
		return nil
	}
	templateID := s.TemplateID.ValueString()
	t, steps, d := r.resolveInputs(ctx, templateID, ins)
	diags.Append(d...)
	if diags.HasError() {
		return nil
	}
	entries, d := planInputEntries(ctx, t, steps, ins, writeOnlyData{}, nil)
	if diags.Append(d...); diags.HasError() {
		return nil
	} else if entries == nil {
		addStillUnknown(diags, path.Root("inputs"), whenInvoked)
		return nil
	}
	planned := make(map[string]types.String, len(ins))
	p.inputFacts = make(map[string]dataFacts, len(ins))
	for i, e := range entries {
		planned[ins[i].key], p.inputFacts[ins[i].key] = types.StringValue(e.SHA256), *e.facts
	}
	loads, _, ok := prepareInputLoads(ctx, t, steps, ins, writeOnlyData{}, planned, diags)
	defer closeLoads(loads)
	if !ok {
		return nil
	}
	p.send(fmt.Sprintf("Creating an import job from template %s to load %s", templateID, importjob.CountInputs(len(loads))))
	job := r.createJob(ctx, templateID, diags)
	if job == nil {
		return nil
	}
	p.send(fmt.Sprintf("Import job %s created: %s", job.ID, job.Status))
	if _, ok := r.loadInputs(ctx, templateID, job, loads, p.reportLoad, diags); !ok {
		return nil
	}
	p.send(fmt.Sprintf("Import job %s: %s loaded", job.ID, importjob.CountInputs(len(loads))))
	return job
}

// finish submits the job (started, or created and loaded) and waits for
// it, as s asks, reporting each step through p; failures go to diags.
func (a *importAction) finish(ctx context.Context, r *jobRunner, s importSpec, job *etl.Job, timeout time.Duration, p *actionProgress, diags *diag.Diagnostics) {
	if s.Submit.ValueBool() {
		submitted, ok := r.submit(ctx, job, false, diags)
		if !ok {
			return
		}
		job = submitted
		p.send(fmt.Sprintf("Import job %s submitted: %s", job.ID, job.Status))
	}
	if !s.WaitForCompletion.ValueBool() {
		p.send(fmt.Sprintf("Import job %s is %s; not waiting for it (wait_for_completion is false)", job.ID, job.Status))
		p.sendSummary(job.ID)
		return
	}
	job = r.wait(ctx, job, timeout, false, diags)
	if job.Status.Final() {
		p.send(fmt.Sprintf("Import job %s ended: %s", job.ID, job.Status))
	} else {
		p.send(fmt.Sprintf("Import job %s is still %s", job.ID, job.Status))
	}
	p.sendSummary(job.ID)
}

// actionProgress reports the action's steps to Terraform (SendProgress) and to
// the log. Every message is sent before Invoke returns: the framework's
// SendProgress must not be called after that.
type actionProgress struct {
	ctx  context.Context
	emit func(action.InvokeProgressEvent) // nil: log only
	// uploadEvery is how often the bytes of a file sent so far are
	// reported.
	uploadEvery time.Duration
	// inputFacts are the counts of each input by key, from the reads that
	// hashed them.
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

// reportLoad says which step an input is loaded into and how many bytes
// it sends, then, while they are sent (f, its file), how many have been;
// loadInputs calls it before each load, and the function it returns once
// the load is over.
func (p *actionProgress) reportLoad(l inputLoad, f *etl.FileUpload) (done func()) {
	facts := p.inputFacts[l.key]
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
