package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// When the provider may settle an old job instead of starting one.
//
// Terraform plans the replacement of an object in one of two ways
// (internal/terraform/node_resource_abstract_instance.go, plan(), and
// OpenTofu's internal/tofu file of the same name):
//
//   - a tainted object (a create cut short, or terraform taint): one plan
//     with a null prior state and no prior private state;
//   - a live object replaced on request (-replace, replace_triggered_by)
//     or because an attribute requires it: a first plan of the live
//     object, then a second with a null prior state whose prior private
//     state is what the first planned.
//
// So every plan of a live object marks its planned private state
// (privateLiveKey), and the plan of a new object records what it imports
// (plannedCreate) and whether it replaces a live object. The Delete half
// of the replacement receives that private state: only the Delete of a
// tainted object whose job has the same definition hands the job over to
// the Create that follows (the Create's own plan at apply carries no
// private state, so the Delete decides). A replacement that was asked for
// imports again, every time.

// plannedCreate is what the plan of a new object records in its planned
// private state.
type plannedCreate struct {
	// Definition is the key of what the new job imports (jobDefinition).
	Definition string `json:"definition"`
	// Replaces is the job of the live object this plan replaces (a
	// replacement asked for, by the user or a change); "" for a tainted
	// object or a new one.
	Replaces string `json:"replaces,omitempty"`
}

// markLive records in the planned private state of a live object its job
// id: the second plan of its replacement, if any, sees it.
func markLive(ctx context.Context, id string, p privateSetter, diags *diag.Diagnostics) {
	setPrivateJSON(ctx, p, privateLiveKey, id, diags)
}

// recordPlannedCreate stores in the planned private state what a new
// object's plan imports, when all of it is known, and which live job it
// replaces (from prior, the plan's prior private state). A replacement
// planned again at apply, right before its Create (one created before
// its destroy), tells that Create which job it replaces (noteReplaced):
// the framework gives a Create no private state.
func (r *importResource) recordPlannedCreate(ctx context.Context, plan importModel, prior privateGetter, p privateSetter, diags *diag.Diagnostics) {
	pc := plannedCreate{}
	if id, ok := privateJSON[string](ctx, prior, privateLiveKey); ok {
		pc.Replaces = *id
		if r.ledger != nil && r.client != nil {
			r.ledger.noteReplaced(r.ledgerKey(ctx, plan), r.ref(pc.Replaces))
		}
	}
	diags.Append(p.SetKey(ctx, privateLiveKey, nil)...)
	def, d := plan.spec().definition(ctx)
	diags.Append(d...)
	if !def.Known() || !known(plan.TemplateID) || !known(plan.ContentSHA256) {
		// Unknown data cannot be matched: a tainted job is not resumed,
		// but a replacement asked for is still told apart.
		if pc.Replaces == "" {
			return
		}
	} else {
		pc.Definition = def.Key()
		r.previewResume(ctx, plan, pc, diags)
	}
	setPrivateJSON(ctx, p, privatePlannedCreateKey, pc, diags)
}

// previewResume says, in the plan of a new object, which job an apply cut
// short left that the apply will settle instead of starting one
// (importjob.Preview): a reviewer sees that this create imports nothing
// new. Terraform shows no warning of the second plan of a replacement.
func (r *importResource) previewResume(ctx context.Context, plan importModel, pc plannedCreate, diags *diag.Diagnostics) {
	if r.ledger == nil || r.client == nil {
		return
	}
	c := importjob.Create{Key: jobKey(r.client.BaseURL(), pc.Definition)}
	if pc.Replaces != "" {
		c.Replaces = r.ref(pc.Replaces).String()
	}
	e := r.ledger.preview(ctx, c)
	if e == nil {
		return
	}
	id := idOf(e.Job)
	diags.AddAttributeWarning(path.Root("id"), fmt.Sprintf("Import job %s will be resumed", id),
		fmt.Sprintf("An earlier apply started job %s with this data for this change and was cut short before Terraform recorded it (the provider's journal of started jobs holds it). "+
			"The apply settles job %s instead of starting a new one (it submits and waits for it as configured), unless the job has ended without importing by then. "+
			"To import the data again instead, apply, then run: %s.", id, id, replaceCommand))
}

// plannedCreateFrom reads what recordPlannedCreate stored; nil when none.
func plannedCreateFrom(ctx context.Context, p privateGetter) *plannedCreate {
	pc, _ := privateJSON[plannedCreate](ctx, p, privatePlannedCreateKey)
	return pc
}

// handsOver reports whether the Delete of state, whose replacement's plan
// is pc (nil: a destroy), hands the job over to that replacement's Create
// (importjob.HandsOver).
func handsOver(ctx context.Context, state importModel, pc *plannedCreate) bool {
	if pc == nil {
		return false
	}
	def, d := state.spec().definition(ctx)
	return !d.HasError() && importjob.HandsOver(importjob.Replaced{Asked: pc.Replaces != "", Job: def,
		Status: etl.JobStatus(state.Status.ValueString()), Gone: isGone(state.Status), Planned: pc.Definition})
}

// ledgerKey is the ledger key of the job m describes; "" when its
// definition is not known or there is no client.
func (r *importResource) ledgerKey(ctx context.Context, m importModel) string {
	def, d := m.spec().definition(ctx)
	if r.client == nil || d.HasError() || !def.Known() || !known(m.ContentSHA256) {
		return ""
	}
	return jobKey(r.client.BaseURL(), def.Key())
}

// ref names job id on the service of the resource's client.
func (r *importResource) ref(id string) jobRef { return jobRef{r.client.BaseURL(), id} }

// warnReplaced says, at apply, that the Delete of a replacement asked for
// leaves the job and its data: Terraform shows no warning of the plan of
// a replacement's new object, so the plan of a -replace cannot say it.
func warnReplaced(state importModel, diags *diag.Diagnostics) {
	jobID := state.ID.ValueString()
	diags.AddWarning(fmt.Sprintf("Import job %s replaced: its data stays in the model", jobID),
		fmt.Sprintf("This etl_import was replaced (terraform apply -replace, replace_triggered_by, or a change that defines the import), so a new job imports the data again. "+
			"Job %s (status %s) is only removed from the Terraform state: the data it imported stays in the model, and nothing is deleted from the service.", jobID, state.Status.ValueString()))
}

// settleDelete settles what the Delete of state (whose replacement's plan
// is pc, nil for a destroy) leaves in the ledger: a tainted job with the
// same definition is handed over to the Create that follows; a
// replacement's Create is told which job it replaces; a destroy drops the
// entries it makes impossible, with a warning for each. It reports whether
// the job was handed over.
func (r *importResource) settleDelete(ctx context.Context, state importModel, pc *plannedCreate, resp *resource.DeleteResponse) bool {
	job := r.ref(state.ID.ValueString())
	handed := handsOver(ctx, state, pc)
	switch {
	case handed:
		r.ledger.handOver(ctx, r.ledgerKey(ctx, state), job)
		tflog.Info(ctx, "tainted import job handed over to its replacement, which resumes it", map[string]any{"job_id": job.id, "status": state.Status.ValueString()})
	case pc != nil:
		r.ledger.found(ctx, job)
	default:
		r.ledger.found(ctx, job)
		warnDropped(r.ledger.destroyed(ctx, job), &resp.Diagnostics)
		return false
	}
	key := ""
	if pc.Definition != "" {
		key = jobKey(r.client.BaseURL(), pc.Definition)
	}
	r.ledger.noteReplaced(key, job)
	return handed
}

// createSettlement is what a Create settled with the ledger
// (importjob.Settle), and the job it holds there.
type createSettlement struct {
	key      string   // the ledger key of the plan's job; "" unknown
	replaces string   // the job the Create replaces ("": a new object), as a ref
	claimed  string   // the job id it settles instead of starting one
	mayBe    []string // the entries a new job of it may be the resource of
	held     string   // the job id it holds in the ledger until it returns
}

// settleCreate settles what the ledger holds for the plan's Create: it
// takes a job of the same change to resume, and records it in state at
// once, before anything else can fail; it drops the entries the change
// makes impossible, with a warning for each.
func (r *importResource) settleCreate(ctx context.Context, plan *importModel, resp *resource.CreateResponse) createSettlement {
	if r.ledger == nil || r.client == nil {
		return createSettlement{}
	}
	cs := createSettlement{key: r.ledgerKey(ctx, *plan)}
	cs.replaces = r.ledger.replacedFor(cs.key)
	s := r.ledger.settle(ctx, importjob.Create{Key: cs.key, Replaces: cs.replaces})
	warnDropped(s.Drops, &resp.Diagnostics)
	cs.mayBe = s.MayBe
	if s.Claim == nil {
		return cs
	}
	cs.claimed = idOf(s.Claim.Job)
	cs.held = cs.claimed
	r.ledger.hold(ctx, cs.key, r.ref(cs.claimed), cs.replaces)
	plan.setJob(&etl.Job{ID: cs.claimed})
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	return cs
}

// started keeps job, which a Create of cs just started, in the ledger:
// held until the Create returns, and noted in the entries it may be the
// resource of.
func (r *importResource) started(ctx context.Context, cs *createSettlement, job *etl.Job) {
	if r.ledger == nil {
		return
	}
	r.ledger.hold(ctx, cs.key, r.ref(job.ID), cs.replaces)
	cs.held = job.ID
	r.ledger.mayBe(ctx, cs.mayBe, r.ref(job.ID))
}

// releaseCreate ends the Create's hold on its job, as it returns.
func (r *importResource) releaseCreate(ctx context.Context, cs *createSettlement) {
	if r.ledger != nil && cs.held != "" {
		r.ledger.release(ctx, r.ref(cs.held))
	}
}

// resume settles the claimed job id in place of a new job, as
// importjob.Resume decides from the job as read now: it records the job
// in state, submits it when it was never submitted, and waits for it as
// configured. It returns false when the job ended without importing or is
// gone (then a new job imports the data, and a warning says why).
func (r *importResource) resume(ctx context.Context, plan *importModel, id string, timeout time.Duration, resp *resource.CreateResponse) bool {
	job, err := r.client.GetJob(ctx, id)
	if err != nil && !etl.IsNotFound(err) {
		// Keep the job in state (its details come with the next refresh),
		// so that the next apply resumes it again rather than forget it.
		addRequestError(&resp.Diagnostics, fmt.Sprintf("Reading import job %s to resume it failed", id), err)
		return true
	}
	facts := importjob.Resumed{Gone: err != nil, Submit: plan.Submit.ValueBool(), Wait: plan.WaitForCompletion.ValueBool()}
	if job != nil {
		facts.Status = job.Status
	}
	d := importjob.Resume(facts)
	if d.StartNew {
		warnNotResumed(id, facts, &resp.Diagnostics)
		return false
	}
	tflog.Info(ctx, "resuming import job an earlier apply left unsettled", map[string]any{"job_id": id, "status": string(job.Status)})
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.AddAttributeWarning(path.Root("id"), fmt.Sprintf("Resumed import job %s", id),
		fmt.Sprintf("An earlier apply started job %s with this data and was cut short (a timeout, an interruption, a failed request, or a killed process). "+
			"This apply settled that job (status %s when resumed) instead of starting a new one, so the data is imported once. "+
			"To import the data again on purpose, run: %s.", id, job.Status, replaceCommand))
	r.submitAndWait(ctx, plan, job, !d.Submit, timeout, resp)
	return true
}

// warnNotResumed says why the job an earlier apply left is not resumed: it
// is gone, or it ended without importing.
func warnNotResumed(id string, f importjob.Resumed, diags *diag.Diagnostics) {
	if f.Gone {
		diags.AddWarning(fmt.Sprintf("Import job %s no longer found; starting a new job", id),
			fmt.Sprintf("An earlier apply left job %s unsettled, and this apply would have resumed it, but the service no longer knows it. A new job imports the data.", id))
		return
	}
	diags.AddWarning(fmt.Sprintf("Import job %s ended %s; starting a new job", id, f.Status),
		fmt.Sprintf("An earlier apply left job %s unsettled; it has since ended with status %s without importing its data, so a new job imports the data.", id, f.Status))
}
