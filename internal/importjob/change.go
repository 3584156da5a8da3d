package importjob

import "github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"

// Change is the plan of a live object: the job in state, what it was
// started with, and what the configuration sends now. (A job imported by
// id that has not adopted a configuration yet has nothing to compare: the
// provider checks its template instead, and plans no change of it.)
type Change struct {
	Prior, Next Import
	// NewInputIDsOnly: with inputs, content_sha256 differs only because
	// the template's input ids changed on the service, its steps (names,
	// order) and each input's data the same.
	NewInputIDsOnly bool
	// SubmitTurnedOn: submit goes from false to true.
	SubmitTurnedOn bool
	// Status is the job's status as last read; Gone: the service no
	// longer knows it.
	Status jobstatus.JobStatus
	Gone   bool
	// KeepFailed: keep_failed is true, so a job that ended without
	// importing stays in state.
	KeepFailed bool
}

// Warning is what a plan or an apply tells the user besides its action.
type Warning int

// The warnings of a plan of a live object.
const (
	NoWarning Warning = iota
	// WarnSubmitGone: submit turned on for a job the service no longer
	// knows: recorded, nothing sent.
	WarnSubmitGone
	// WarnSubmitReplaces: submit turned on for a job that ended without
	// ever being submitted: a new job imports the data.
	WarnSubmitReplaces
	// WarnRehashed: new input ids for the same steps and data: the new
	// content_sha256 is recorded in place.
	WarnRehashed
	// WarnFailedReplaced: the job ended in ERROR, CANCELLED or EXPIRED and
	// imported nothing: a new job imports the data.
	WarnFailedReplaced
)

// ChangePlan is what the plan of a live object does: replace the job for
// the parts in Replace (or for submit, ReplaceForSubmit; or because it
// imported nothing, ReplaceFailed), record a new content_sha256 in place
// (Rehash), or else update in place.
type ChangePlan struct {
	Replace          []Part
	ReplaceForSubmit bool
	ReplaceFailed    bool
	Rehash           bool
	Warnings         []Warning
}

// ReplacesFailed reports whether the plan of a job in status replaces it
// because it imported nothing: it ended in ERROR, CANCELLED or EXPIRED,
// however that was seen (the apply that waited, a refresh, an adoption by
// id), and keep_failed is not set. A job in progress, and one the service
// no longer knows, are not replaced.
func ReplacesFailed(status jobstatus.JobStatus, keepFailed bool) bool {
	return status.Failed() && !keepFailed
}

// PlanChange decides the plan of a live object (the resource page's table
// of changes): a new job when the job imported nothing (ReplacesFailed),
// or when what the service would import changes (Changed), except new
// input ids for the same steps and data; submit turned on is decided by
// what the job has been through (planSubmit).
func PlanChange(c Change) ChangePlan {
	var p ChangePlan
	for _, part := range Changed(c.Prior.Definition(), c.Next.Definition()) {
		if part == PartContent && c.NewInputIDsOnly {
			p.Rehash = true
			p.Warnings = append(p.Warnings, WarnRehashed)
			continue
		}
		p.Replace = append(p.Replace, part)
	}
	if ReplacesFailed(c.Status, c.KeepFailed) {
		p.ReplaceFailed = true
		p.Warnings = append(p.Warnings, WarnFailedReplaced)
		return p
	}
	planSubmit(c, &p)
	return p
}

// planSubmit plans submit turned on: a job that was submitted needs
// nothing sent (recorded in place); one that ended without ever being
// submitted (CANCELLED, EXPIRED) is replaced, with a warning; one the
// service no longer knows is left, with a warning; any other is
// submitted in place at apply (SubmitInPlace).
func planSubmit(c Change, p *ChangePlan) {
	switch {
	case !c.SubmitTurnedOn:
	case c.Gone:
		p.Warnings = append(p.Warnings, WarnSubmitGone)
	case EndedUnsubmitted(c.Status):
		p.ReplaceForSubmit = true
		p.Warnings = append(p.Warnings, WarnSubmitReplaces)
	}
}

// Submit is what an update in place does about submit.
type Submit int

// The submit actions of an update in place.
const (
	// SubmitNothing: submit was not turned on, or the job was submitted.
	SubmitNothing Submit = iota
	// SubmitNow: the job is submitted in place.
	SubmitNow
	// SubmitFails: the job ended without ever being submitted since the
	// plan (a saved plan applied late): the apply fails, naming it; the
	// next plan replaces it.
	SubmitFails
)

// SubmitInPlace decides the submit of an update in place of a job in
// status (as read at apply) when submit is turned on.
func SubmitInPlace(turnedOn bool, status jobstatus.JobStatus) Submit {
	switch {
	case !turnedOn || WasSubmitted(status):
		return SubmitNothing
	case EndedUnsubmitted(status):
		return SubmitFails
	}
	return SubmitNow
}

// WaitInPlace reports whether an update in place waits for a job in
// status: wait_for_completion on, and the job in progress (not final, and
// not EDITING, which runs only once submitted).
func WaitInPlace(wait bool, status jobstatus.JobStatus) bool {
	return wait && !status.Final() && status != jobstatus.StatusEditing
}

// ChangedAtApply lists the parts of a job's definition that an update in
// place finds changed once the values unknown at plan are known (the plan
// could not compare them, and planned in place): such an update fails
// before anything is sent. A content_sha256 recorded anew for new input
// ids (rehashed) is no change.
func ChangedAtApply(prior, next Definition, rehashed bool) []Part {
	var out []Part
	pv, nv := prior.values(), next.values()
	for i := range nv {
		p := Part(i + 1)
		if rehashed && p == PartContent {
			continue
		}
		if pv[i].Known && nv[i].Known && pv[i].Text != nv[i].Text {
			out = append(out, p)
		}
	}
	return out
}
