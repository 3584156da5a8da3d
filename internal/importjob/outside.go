package importjob

import (
	"fmt"
	"sync"
)

// What lies outside the configuration: a file the configuration names (a
// file's or an input's), the template on the service (its steps, for
// inputs; the one an adopted job must belong to). A plan reads it, and it
// can be missing, unreadable or refused when the plan runs: a teardown on a
// fresh CI runner, a data folder removed first, a template deleted.
//
// Once a job is imported no plan of it fails on that: before a destroy,
// Terraform and OpenTofu plan in normal mode with the whole configuration
// (PreDestroyRefresh), and an error there blocks the destroy. The apply
// that truly needs it fails with the error instead. A new object, which
// has no job yet, keeps failing at plan: the earlier the error, the better.

// Holding is which object a plan of an etl_import is the plan of, as far
// as the outside world goes.
type Holding int

// The objects a plan can be of.
const (
	// HoldsNothing: a new object, with no job.
	HoldsNothing Holding = iota
	// HoldsLive: the plan of an object in state (a refresh, an update in
	// place, or the first of a replacement's two plans).
	HoldsLive
	// HoldsReplaced: the second plan of a replacement, with no prior state,
	// of the new object that replaces a live one (-replace, a trigger, a
	// change that needs a new job).
	HoldsReplaced
	// HoldsTainted: a tainted object's plan, which has no prior state
	// either; the refresh of the same run read its job.
	HoldsTainted
)

// Unreadable is what a plan does when what lies outside its configuration
// cannot be read or checked.
type Unreadable struct {
	// Warn: the problem is a warning on its attribute, not an error.
	Warn bool
	// KeepPrior: the plan keeps what the state holds of the data
	// (content_sha256 and what it shows of the data): it plans no change
	// for it, and nothing that needs the data.
	KeepPrior bool
	// RefuseDelete: the plan replaces the job with a new one, which needs
	// the data: the replacement's Delete, which runs first, fails with the
	// problem, so that the apply destroys nothing and starts nothing.
	RefuseDelete bool
}

// PlanUnreadable decides what a plan of h does when what lies outside its
// configuration cannot be read (the resource page's "When the data is
// gone"): an error only for a new object; a warning, keeping the state's
// data, for a live one; a warning and a replacement that fails before it
// destroys anything, for a replacement and a tainted object.
func PlanUnreadable(h Holding) Unreadable {
	switch h {
	case HoldsLive:
		return Unreadable{Warn: true, KeepPrior: true}
	case HoldsReplaced, HoldsTainted:
		return Unreadable{Warn: true, RefuseDelete: true}
	}
	return Unreadable{}
}

// UnreadableNote ends the warning of a problem outside the configuration
// in the plan of h, an object that holds job jobID (PlanUnreadable: Warn):
// a live object's job stays, and only an apply that needs the data fails;
// a replacement's or a tainted object's apply fails before it destroys or
// starts anything. Each says that destroy works.
func UnreadableNote(h Holding, jobID string) string {
	if h == HoldsLive {
		return fmt.Sprintf("Import job %s in the state does not need this: while the job is kept, this plan changes nothing of its data, and terraform destroy works without it. "+
			"An apply that does need it fails with this error before it destroys or starts anything: one that replaces the job with a new one "+
			"(-replace, replace_triggered_by, or a change of template_id, format or encoding), changes its data in place, or adopts an imported job.", jobID)
	}
	return fmt.Sprintf("This plan replaces import job %s with a new job, which needs this: the apply fails with this error before it destroys or starts anything, "+
		"and the state keeps job %s. terraform destroy works without it.", jobID, jobID)
}

// RefusedDelete is the detail of the error the Delete of a replacement
// fails with (PlanUnreadable: RefuseDelete), for the problem its plan
// recorded (detail), jobID being the job it keeps.
func RefusedDelete(detail, jobID string) string {
	return fmt.Sprintf("%s\n\nThe new job that replaces import job %s needs this, and it could not be read when the plan ran. "+
		"Nothing was destroyed and no job was started: the state keeps job %s. Fix it, then run terraform apply again; terraform destroy works without it.",
		detail, jobID, jobID)
}

// PlanTemplateGone decides what the plan of h does when the template its
// new job would start from is not found on the service: the replacement
// of a live object, whose create always starts a new job, warns and its
// Delete refuses, so the state keeps the job. Any other plan goes on as
// before: a tainted object's create may resume its job, which needs no
// template, and a new object's start fails at apply, creating nothing (an
// error at plan would also fail the refresh before a destroy, whose
// configuration may hold an object never created).
func PlanTemplateGone(h Holding) Unreadable {
	if h == HoldsReplaced {
		return Unreadable{Warn: true, RefuseDelete: true}
	}
	return Unreadable{}
}

// Refreshed remembers, for one provider process, the sources outside the
// configuration (its files, each with the template it goes to) of the
// objects its refreshes read, with their jobs. Terraform and OpenTofu plan
// a tainted object as a new one, with no prior state; the refresh of the
// same run read it, so a plan with a source one of them read is that of
// an object in state (HoldsTainted). A new object that names the same file
// as one in state is taken for it too: its plan then warns where it would
// fail, and its apply fails as the file cannot be read. An imported job
// that has not adopted its configuration names neither a file nor a
// template in its state: it is remembered by its model (ImportedSource),
// and a plan whose template imports into that model is taken for it. A
// nil *Refreshed remembers nothing.
type Refreshed struct {
	mu   sync.Mutex
	jobs map[string]string // source -> job id
}

// Add remembers the sources of an object whose job the refresh read.
func (r *Refreshed) Add(job string, sources []string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.jobs == nil {
		r.jobs = map[string]string{}
	}
	for _, s := range sources {
		r.jobs[s] = job
	}
}

// JobOf returns the job of an object a refresh read with one of sources;
// "" when none.
func (r *Refreshed) JobOf(sources []string) string {
	if r == nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range sources {
		if job := r.jobs[s]; job != "" {
			return job
		}
	}
	return ""
}

// ImportedSource is the source of an imported job of model modelID that
// has not adopted its configuration: all its state says of where its data
// goes.
func ImportedSource(modelID string) string { return "imported into model " + modelID }
