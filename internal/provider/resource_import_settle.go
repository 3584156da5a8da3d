package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// What a Delete and a Create tell the journal of started jobs
// (importjob.Journal), read from their state and plan, and what it
// decides, written back: the job kept in state, and a warning for each
// entry dropped.

// journalKey is the key of the job m describes; "" when its definition is
// not known or there is no client.
func (r *importResource) journalKey(ctx context.Context, m importModel) importjob.Key {
	def, d := m.spec().definition(ctx)
	if r.client == nil || d.HasError() || !known(m.ContentSHA256) {
		return ""
	}
	return def.KeyOn(r.client.BaseURL())
}

// ref names job id on the service of the resource's client.
func (r *importResource) ref(id string) importjob.JobRef {
	return importjob.NewJobRef(r.client.BaseURL(), id)
}

// settleDelete tells the journal of the Delete of state, whose
// replacement's plan is pc (nil for a destroy), and warns of each entry it
// drops. It reports whether the job was handed over to the Create that
// follows (a tainted job of the planned definition), which settles it.
func (r *importResource) settleDelete(ctx context.Context, state importModel, pc *plannedCreate, resp *resource.DeleteResponse) bool {
	if r.journal == nil || r.client == nil {
		return false
	}
	d := importjob.Deleted{Job: r.ref(state.ID.ValueString())}
	if pc != nil {
		d.Replaced = &importjob.Replaced{Asked: pc.Replaces != "", Key: r.journalKey(ctx, state), Status: etl.JobStatus(state.Status.ValueString()),
			Gone: isGone(state.Status), Planned: importjob.NewKey(r.client.BaseURL(), pc.Definition)}
	}
	handed, drops, err := r.journal.Delete(d)
	logJournal(ctx, err)
	warnDropped(drops, &resp.Diagnostics)
	if handed {
		tflog.Info(ctx, "tainted import job passed to its replacement, which resumes it", map[string]any{"job_id": d.Job.ID(), "status": state.Status.ValueString()})
	}
	return handed
}

// settleCreate settles the journal for the plan's Create: the job of the
// same change it settles instead of starting one, kept in state at once
// (keepJob), and a warning for each entry its change makes impossible.
// false: the journal cannot say whether it holds a job of this data, and
// the Create fails without starting one (an error says what to run).
func (r *importResource) settleCreate(ctx context.Context, plan *importModel, resp *resource.CreateResponse) (*importjob.Settled, bool) {
	if r.journal == nil || r.client == nil {
		return &importjob.Settled{}, true
	}
	s, err := r.journal.SettleCreate(r.journalKey(ctx, *plan))
	if unsure := (*importjob.UnsureError)(nil); errors.As(err, &unsure) {
		addUnsure(unsure, &resp.Diagnostics)
		return s, false
	}
	logJournal(ctx, err)
	warnDropped(s.Drops, &resp.Diagnostics)
	if !s.Claim.IsZero() {
		r.keepJob(ctx, s, plan, &etl.Job{ID: s.Claim.ID()}, resp)
	}
	return s, true
}

// keepJob keeps job, which exists, in the journal, then in state, before
// anything else can fail: a later failure leaves it in state (tainted)
// rather than forgotten, and a killed apply in the journal. A job the
// Create settled is in the journal already (SettleCreate holds it); a job
// it started is noted in the entries it may be the resource of. false:
// the state could not be set.
func (r *importResource) keepJob(ctx context.Context, s *importjob.Settled, plan *importModel, job *etl.Job, resp *resource.CreateResponse) bool {
	if r.journal != nil && r.ref(job.ID) != s.Claim {
		logJournal(ctx, r.journal.Started(s, r.ref(job.ID)))
	}
	plan.setJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	return !resp.Diagnostics.HasError()
}

// releaseCreate ends the Create's hold on its job, as it returns: cut
// short when its request was cancelled (Ctrl-C, or Terraform gone).
func (r *importResource) releaseCreate(ctx context.Context, s *importjob.Settled) {
	if r.journal == nil {
		return
	}
	cutShort := ctx.Err() != nil
	if cutShort {
		tflog.Info(ctx, "request cancelled: the job stays in the journal until a state is known to hold it")
	}
	logJournal(ctx, r.journal.Release(s, cutShort))
}
