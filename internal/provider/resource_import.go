package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// Default timeouts of etl_import.
const (
	defaultCreateTimeout = 30 * time.Minute
	defaultDeleteTimeout = 5 * time.Minute
)

var (
	_ resource.ResourceWithConfigure        = (*importResource)(nil)
	_ resource.ResourceWithImportState      = (*importResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*importResource)(nil)
	_ resource.ResourceWithConfigValidators = (*importResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*importResource)(nil)
	_ resource.ResourceWithIdentity         = (*importResource)(nil)
)

func newImportResource() resource.Resource { return &importResource{} }

// importResource is the etl_import resource; its jobRunner (resource
// wording) starts, submits and waits for its job.
type importResource struct {
	jobRunner
	hashCache bool               // the file hash cache is on (newHashCache)
	journal   *importjob.Journal // the jobs in no state yet (resource_import_journal.go)
	gate      *responseGate      // spaces the responses (resource_import_response_gate.go)
	// refreshed: the files of the objects refreshed by this provider
	// (Read).
	refreshed *importjob.Refreshed
}

func (r *importResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_import"
}

// Configure takes what the provider handed over, and gives the resource's
// jobRunner its wording.
func (r *importResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.wording = resourceWording
	d := importDataFrom(req.ProviderData, &resp.Diagnostics)
	r.client, r.tuning = d.client, d.tuning
	r.hashCache, r.journal, r.gate, r.refreshed = d.hashCache, d.journal, d.gate, d.refreshed
}

// Create starts the job with the planned bytes, then submits it and waits
// for it as configured. The job is in the journal from the moment its id
// is known, and in state at once (keepJob). A job the journal holds for
// the same change (handed over by the Delete of a tainted object, or left
// by an apply cut short) is settled instead (settleCreate, resume).
func (r *importResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer func() { r.gate.pass(resp.Diagnostics.HasError() && !resp.State.Raw.IsNull()) }()
	var plan importModel
	defer func() { setIdentity(ctx, plan.ID, resp.Identity, &resp.Diagnostics) }()
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	defer func(planned importModel) { // Create returns with the job in state: keep the model the plan showed
		if !resp.State.Raw.IsNull() && keepPlannedModel(planned, &plan, plan.ID.ValueString(), &resp.Diagnostics) {
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("model_id"), plan.ModelID)...)
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("model_name"), plan.ModelName)...)
		}
	}(plan)
	cs, ok := r.settleCreate(ctx, &plan, resp)
	if !ok {
		return
	}
	defer r.releaseCreate(ctx, cs)
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	timeout, d := configuredTimeout(ctx, plan.Timeouts.Object, "create", defaultCreateTimeout, plan.Timeouts.Create)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	wo, d := readWriteOnly(ctx, req.Config)
	resp.Diagnostics.Append(d...)
	fillFacts(ctx, &plan, wo, r.tuning.bodyLimit())
	if !cs.Claim.IsZero() {
		if r.resume(wctx, &plan, cs.Claim.ID(), timeout, resp) {
			return
		}
		logJournal(ctx, r.journal.Discard(cs)) // it ended without importing, or is gone
	}
	job := r.startJob(wctx, &plan, wo, cs, resp)
	if job == nil {
		return
	}
	r.submitAndWait(wctx, &plan, job, false, timeout, resp)
}

// startJob starts a job with all the planned data (a file, rows, or every
// input loaded), and keeps it in the journal and in state the moment it
// exists (keepJob); nil after an error (with the job in state if it
// exists).
func (r *importResource) startJob(ctx context.Context, plan *importModel, wo writeOnlyData, cs *importjob.Settled, resp *resource.CreateResponse) *etl.Job {
	if !plan.Inputs.IsNull() {
		return r.createWithInputs(ctx, plan, wo, cs, resp)
	}
	s := plan.spec()
	up, d := prepareUpload(ctx, &s, wo, r.tuning.bodyLimit())
	plan.File = s.File
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	defer up.Close()
	if !up.checkPlanned(plan.ContentSHA256, &resp.Diagnostics) {
		return nil
	}
	plan.ContentSHA256 = types.StringValue(up.sum)
	job := r.start(ctx, plan.TemplateID.ValueString(), up, &resp.Diagnostics)
	if job == nil {
		return nil
	}
	if !r.keepJob(ctx, cs, plan, job, resp) {
		return nil
	}
	// The disk cache keeps the hash of the bytes sent (KeepSent): they
	// matched the planned hash, and the file's identity was the same when
	// it was opened and after the send. The plan that the apply makes
	// first checked those bytes (see planFileSHA256), and counted them:
	// the record keeps the counts of that plan's record.
	if f, _ := fileFrom(ctx, plan.File); r.hashCache && up.opened != nil && f != nil {
		localfile.UserDiskCache().KeepSent(up.opened, checkKey(*f))
	}
	return job
}

// submitAndWait submits the job in state, unless it was submitted
// already, and waits for it, as configured, recording it in state after
// each step (a failed submit too: the status it found the job in).
func (r *importResource) submitAndWait(ctx context.Context, plan *importModel, job *etl.Job, submitted bool, timeout time.Duration, resp *resource.CreateResponse) {
	if plan.Submit.ValueBool() && !submitted {
		got, ok := r.submit(ctx, job, plan.KeepFailed.ValueBool(), &resp.Diagnostics)
		if got != nil {
			job = got
			plan.setJob(job)
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		if !ok {
			return
		}
	}
	if plan.WaitForCompletion.ValueBool() {
		plan.setJob(r.wait(ctx, job, timeout, plan.KeepFailed.ValueBool(), &resp.Diagnostics))
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	}
}

func (r *importResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state importModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// States written before identities existed gain one at their refresh.
	// The framework wants it even for a resource Read removes.
	setIdentity(ctx, state.ID, resp.Identity, &resp.Diagnostics)
	if r.client == nil {
		if state.Status.IsNull() { // just imported: nothing known yet
			notConfigured(&resp.Diagnostics)
		}
		// Otherwise keep the last known state: the provider's settings are
		// unknown during this plan.
		return
	}
	job, err := r.client.GetJob(ctx, state.ID.ValueString())
	if etl.IsNotFound(err) {
		if state.Status.IsNull() { // just imported: there is no such job to import
			resp.State.RemoveResource(ctx)
			return
		}
		// The job and its data stay: forgetting it would start a second job.
		markGone(&state, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Reading import job %s failed", state.ID.ValueString()), explain(err))
		return
	}
	state.setJob(job)
	r.heldByState(ctx, state.ID)
	// The sources a refresh remembers (sourceKeys), and for an imported job
	// that has not adopted its configuration (its template_id null in
	// state; a refused Delete replaces the private mark with the plan's),
	// its model (importjob.ImportedSource).
	sources := sourceKeys(ctx, state)
	if state.TemplateID.IsNull() && known(state.ModelID) {
		sources = append(sources, importjob.ImportedSource(state.ModelID.ValueString()))
	}
	r.refreshed.Add(state.ID.ValueString(), r.onService(sources))
	refreshFacts(ctx, &state, newHashCache(r.hashCache), r.tuning.bodyLimit())
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *importResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	defer r.gate.pass(false)
	var state importModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if refuseDelete(ctx, req.Private, state.ID.ValueString(), &resp.Diagnostics) {
		return
	}
	pc, _ := privateJSON[plannedCreate](ctx, req.Private, privatePlannedCreateKey)
	if r.settleDelete(ctx, state, pc, resp) {
		// The replacement of a tainted job with the same definition: the
		// Create that follows settles this job instead of starting
		// another, so it is not cancelled, even with cancel_on_destroy.
		return
	}
	if pc != nil && pc.Replaces != "" && !jobstatus.JobStatus(state.Status.ValueString()).Failed() {
		// A failed job imported nothing: its plan said so (WarnFailedReplaced).
		// Terraform shows no warning of the plan of a replacement's new
		// object, so the plan of a -replace cannot say the job stays.
		jobID := state.ID.ValueString()
		resp.Diagnostics.AddWarning(fmt.Sprintf("Import job %s replaced: its data stays in the model", jobID),
			fmt.Sprintf("This etl_import was replaced (terraform apply -replace, replace_triggered_by, or a change that defines the import), so a new job imports the data again. "+
				"Job %s (status %s) is only removed from the Terraform state: the data it imported stays in the model, and nothing is deleted from the service.", jobID, state.Status.ValueString()))
	}
	if !state.CancelOnDestroy.ValueBool() {
		return // the job and its data stay; Terraform forgets the job
	}
	// cancel_on_destroy cancels the job unless it is final or gone (etl.Client.CancelUnfinished).
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	timeout, d := configuredTimeout(ctx, state.Timeouts.Object, "delete", defaultDeleteTimeout, state.Timeouts.Delete)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	jobID := state.ID.ValueString()
	status, err := r.client.CancelUnfinished(ctx, jobID)
	switch {
	case err != nil && status == "":
		resp.Diagnostics.AddError(fmt.Sprintf("Reading the status of import job %s failed", jobID),
			fmt.Sprintf("cancel_on_destroy needs the job's status: %s", explain(err)))
	case err != nil:
		resp.Diagnostics.AddError(fmt.Sprintf("Cancelling import job %s failed", jobID),
			fmt.Sprintf("The job was %s; cancelling it failed: %s", status, explain(err)))
	case status != "" && !status.Final():
		tflog.Info(ctx, "cancelled import job", map[string]any{"job_id": jobID, "status_before": string(status)})
	}
}

// Update records a change that needs no new job: nothing here starts one.
// The change is recorded, the job submitted when submit was turned on, or
// an imported job adopts its configuration. Its steps: fill what the plan
// left unknown (fillAtApply), read the data the plan could not
// (verifyKeptData), check that the job is still the one planned (an
// imported job's template, checkAdoptedTemplate; any other job's values
// unknown at plan, checkUnchangedAtApply), read the job (a job the service
// no longer knows is recorded as gone, with a warning, and the change in
// place still recorded), submit it (submitInPlace), and wait for it as
// configured.
func (r *importResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer r.gate.pass(false)
	var plan, state importModel
	defer func() { setIdentity(ctx, plan.ID, resp.Identity, &resp.Diagnostics) }()
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.client == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	wo, ok := r.fillAtApply(ctx, req.Config, &plan, &resp.Diagnostics)
	if !ok || !r.verifyKeptData(ctx, wo, req.Private, state, plan, &resp.Diagnostics) {
		return
	}
	if adopting(ctx, state.TemplateID, req.Private) {
		r.checkAdoptedTemplate(ctx, plan.TemplateID.ValueString(), state, &resp.Diagnostics)
	} else {
		checkUnchangedAtApply(ctx, state, plan, rehashed(ctx, req.Private), &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRehashedKey, nil)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateUnverifiedKey, nil)...)
	job, err := r.client.GetJob(ctx, plan.ID.ValueString())
	switch {
	case etl.IsNotFound(err):
		plan.UpdatedDate = state.UpdatedDate
		markGone(&plan, &resp.Diagnostics)
	case err != nil:
		resp.Diagnostics.AddError(fmt.Sprintf("Reading import job %s failed", plan.ID.ValueString()), explain(err))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdoptedKey, nil)...)
	if job != nil {
		if job, ok = r.submitInPlace(ctx, state, plan, job, &resp.Diagnostics); !ok {
			return
		}
		plan.setJob(job)
		// With wait_for_completion, wait for a job in progress (not one in
		// EDITING, which runs only once submitted), within timeouts.create.
		if importjob.WaitInPlace(plan.WaitForCompletion.ValueBool(), job.Status) {
			timeout, d := configuredTimeout(ctx, plan.Timeouts.Object, "create", defaultCreateTimeout, plan.Timeouts.Create)
			resp.Diagnostics.Append(d...)
			wctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			plan.setJob(r.wait(wctx, job, timeout, plan.KeepFailed.ValueBool(), &resp.Diagnostics))
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// fillAtApply fills what the plan left unknown, now known: the defaults
// of the files (resolveFile; fillInputs for the inputs'), content_sha256
// and the data's facts. It returns the configuration's write-only data;
// false after an error.
func (r *importResource) fillAtApply(ctx context.Context, cfg tfsdk.Config, plan *importModel, diags *diag.Diagnostics) (writeOnlyData, bool) {
	wo, d := readWriteOnly(ctx, cfg)
	diags.Append(d...)
	if !plan.File.IsNull() {
		s := plan.spec()
		_, d := resolveFile(ctx, &s)
		plan.File = s.File
		diags.Append(d...)
	}
	if !plan.Inputs.IsNull() {
		diags.Append(r.fillInputs(ctx, plan, wo)...)
	}
	if plan.ContentSHA256.IsUnknown() {
		sum, d := planContentHash(ctx, plan.spec(), wo, nil, r.tuning.bodyLimit())
		diags.Append(d...)
		plan.ContentSHA256 = sum
	}
	fillFacts(ctx, plan, wo, r.tuning.bodyLimit())
	return wo, !diags.HasError()
}
