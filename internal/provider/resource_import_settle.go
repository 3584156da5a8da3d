package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// What a Delete and a Create settle with the ledger of jobs no state holds
// yet (importjob.Settle, Destroy, HandsOver): the jobs they hand over,
// take, drop and hold, and the warnings for what they drop.

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
		tflog.Info(ctx, "tainted import job passed to its replacement, which resumes it", map[string]any{"job_id": job.id, "status": state.Status.ValueString()})
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
	r.ledger.noteReplaced(key, job, pc.Replaces == "") // a replacement planned as new: of a tainted object
	return handed
}

// createSettlement is what a Create settled with the ledger
// (importjob.Settle), and the job it holds there.
type createSettlement struct {
	key     string   // the ledger key of the plan's job; "" unknown
	prior   string   // the change its job is for: the live job it replaces, as a ref; "" for a new or tainted object
	claimed string   // the job id it settles instead of starting one
	mayBe   []string // the entries a new job of it may be the resource of
	held    string   // the job id it holds in the ledger until it returns
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
	c := r.ledger.replacedFor(cs.key)
	if !c.Tainted {
		cs.prior = c.Replaces
	}
	s := r.ledger.settle(ctx, c)
	warnDropped(s.Drops, &resp.Diagnostics)
	cs.mayBe = s.MayBe
	if s.Claim == nil {
		return cs
	}
	cs.claimed = idOf(s.Claim.Job)
	cs.held = cs.claimed
	r.ledger.hold(ctx, cs.key, r.ref(cs.claimed), cs.prior)
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
	r.ledger.hold(ctx, cs.key, r.ref(job.ID), cs.prior)
	cs.held = job.ID
	r.ledger.mayBe(ctx, cs.mayBe, r.ref(job.ID))
}

// releaseCreate ends the Create's hold on its job, as it returns.
func (r *importResource) releaseCreate(ctx context.Context, cs *createSettlement) {
	if r.ledger != nil && cs.held != "" {
		r.ledger.release(ctx, r.ref(cs.held))
	}
}
