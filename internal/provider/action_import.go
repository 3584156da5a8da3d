package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
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
// inputs, the loading the resource shares in common_inputs_load.go), and
// reports its progress. It keeps nothing.
type importAction struct{ runnerData }

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

// Invoke starts a new job with the configured data (with inputs: creates
// it and loads each input, runInputs), then submits it and waits for it as
// configured, all within timeouts.invoke. A job that fails fails the
// invocation with its id and status.
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
	if !s.Inputs.IsNull() {
		a.runInputs(ctx, s, timeout, p, &resp.Diagnostics)
		return
	}
	// The data is checked again now, as a plan checks it (the file may
	// have changed since the plan), and its hash is the one the send
	// verifies. A file's rows are counted in that same read (hc.counted).
	hc := &hashCache{}
	limit := a.tuning.bodyLimit()
	sum, d := planContentHash(ctx, s, writeOnlyData{}, hc, limit)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	s.ContentSHA256 = sum
	var factDiags diag.Diagnostics // the hash reported the data's problems
	p.facts = planDataFacts(ctx, s, writeOnlyData{}, hc.counted, limit, &factDiags)
	up, d := prepareUpload(ctx, &s, writeOnlyData{}, limit)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	defer up.Close()
	a.run(ctx, s, up, timeout, p, &resp.Diagnostics)
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

// run starts the job with the file or rows of s, then submits it and
// waits for it as configured (finish), reporting each step through p;
// failures go to diags.
func (a *importAction) run(ctx context.Context, s importSpec, up *preparedUpload, timeout time.Duration, p *actionProgress, diags *diag.Diagnostics) {
	r := a.runner(p)
	job := startReporting(ctx, r, s.TemplateID.ValueString(), up, p, diags)
	if job == nil {
		return
	}
	p.send(fmt.Sprintf("Import job %s started: %s", job.ID, job.Status))
	a.finish(ctx, r, s, job, timeout, p, diags)
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
