package importjob

import (
	"fmt"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

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

// What a job's status says of what it has been through, for the rules
// that depend on it (submit turned on, a job resumed). What a refused
// submit means is the client's (etl.Client.SubmitConfirmed).

// WasSubmitted reports whether a job in status s has been through a
// submit: submitting it again is never needed, nor sent. QUEUED is not
// one: a start answers QUEUED when another job of the model runs
// (api-notes.md), so a QUEUED job may never have been submitted.
func WasSubmitted(s jobstatus.JobStatus) bool {
	switch s {
	case jobstatus.StatusSubmitted, jobstatus.StatusWaiting, jobstatus.StatusCompleted, jobstatus.StatusError:
		return true
	}
	return false
}

// EndedUnsubmitted reports whether a job in status s was never submitted
// and can no longer be: importing its data takes a new job.
func EndedUnsubmitted(s jobstatus.JobStatus) bool {
	return s == jobstatus.StatusCancelled || s == jobstatus.StatusExpired
}

// Words says warning w of the plan of job jobID, whose state holds status,
// configured with template templateID: the attribute it is about (submit
// inputs or status), its summary and its detail. replace is the command that
// imports the data again with a new job, as the user runs it.
func (w Warning) Words(jobID, status, templateID, replace string) (attr, summary, detail string) {
	switch w {
	case WarnSubmitGone:
		return "submit", fmt.Sprintf("Import job %s cannot be submitted", jobID),
			fmt.Sprintf("The service no longer knows job %s (status %s), so it cannot be submitted: submit = true is recorded and nothing is sent. "+
				"To import the data again with a new job, run: %s.", jobID, status, replace)
	case WarnSubmitReplaces:
		return "submit", fmt.Sprintf("Turning submit on replaces import job %s", jobID),
			fmt.Sprintf("Job %s is %s: it was never submitted and can no longer be, and it ended without importing its data. "+
				"Turning submit on therefore plans its replacement: a new job that imports the data.", jobID, status)
	case WarnFailedReplaced:
		return "status", fmt.Sprintf("Import job %s ended with status %s: a new job is planned", jobID, status),
			fmt.Sprintf("Job %s ended with status %s, so the service imported none of its data (the reason is in the job's details in the service's own application). "+
				"This plan replaces it with one new job that imports the data of this configuration; fix the cause first, or the new job fails the same way. "+
				"To keep the failed job in the state instead, set keep_failed = true.", jobID, status)
	case WarnRehashed:
		return "inputs", "Template input ids changed; the job is kept",
			fmt.Sprintf("The input ids of template %s changed on the service since job %s was loaded, but its steps have the same names and order, "+
				"and each input has the same bytes, format and encoding: the service would import the same way, so no new job starts. "+
				"content_sha256 is recorded in place with the new input ids.", templateID, jobID)
	}
	return "", "", ""
}

// An etl_import imported by the id of its job adopts its configuration at
// the next apply, without starting a job. A job carries no template id: it
// adopts only the configuration whose template_id is a template of the
// job's name (the template's name) and model.

// Adopting reports whether a plan or an apply of a live object is an
// imported job adopting its configuration rather than a change of the job:
// the job was imported by id and has not adopted a configuration yet
// (imported: the mark the import leaves until the first apply), and its
// state holds no template yet (templateInState false: nothing to compare a
// change with). Such a plan checks the job's template and plans no change
// (Change is never planned for it).
func Adopting(imported, templateInState bool) bool { return imported && !templateInState }

// ImportedJob is a job imported by id, as its state reads it.
type ImportedJob struct {
	ID, Name, ModelID, ModelName string
}

// AdoptionMismatch says how job differs from the template t it is to
// adopt, naming both, or "" when it belongs to it. A name the service left
// empty is not compared.
func AdoptionMismatch(job ImportedJob, t Template) string {
	if job.ModelID == t.ModelID && (job.Name == "" || job.Name == t.Name) {
		return ""
	}
	return fmt.Sprintf("The imported job %s is %q of model %q (%s), but template_id %s is the template %q of model %q (%s): "+
		"the job was not started from this template. Nothing was changed and no job was started. "+
		"Set template_id to the template the job was started from (a job's name is its template's name), "+
		"or remove the import to start a new job from template %s instead.",
		job.ID, job.Name, job.ModelName, job.ModelID,
		t.ID, t.Name, t.ModelName, t.ModelID, t.ID)
}
