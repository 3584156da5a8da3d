package importjob

import "github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"

// Replaced is what the destroy half of a replacement knows: whether the
// replacement was asked for (planned from the live object: -replace, a
// trigger, a changed definition) or is that of a tainted object (planned
// as new); the key of the job destroyed, as in state ("" when its
// definition is not all known), its status, and the key of what its
// create imports ("" when the plan could not know it).
type Replaced struct {
	Asked   bool
	Key     Key
	Status  jobstatus.JobStatus
	Gone    bool
	Planned Key
}

// HandsOver reports whether the destroy hands the job over to the create
// that follows, which settles it instead of starting one: the object was
// tainted (a wait cut short, or terraform taint), not replaced on request;
// the job's definition is the planned one; and it did not end without
// importing, nor is it gone.
func HandsOver(r Replaced) bool {
	if r.Asked || r.Planned == "" || r.Gone || r.Key != r.Planned {
		return false
	}
	return !r.Status.Failed()
}

// Resumed is what a create knows of the job it settles, as read when it
// resumes it, and what the configuration asks of it.
type Resumed struct {
	Status jobstatus.JobStatus
	Gone   bool
	Submit bool
	// KeepFailed: keep_failed is true, so a job that ended without
	// importing is kept (ReplacesFailed), not replaced by a new one.
	KeepFailed bool
}

// Resumption is what a create does with the job it settles: start a new
// job instead (the job ended without importing, unless keep_failed keeps
// it, or is gone), or keep it, submitting it first when it was never
// submitted and submit is on.
type Resumption struct {
	StartNew, Submit bool
}

// Resume decides what a create does with the job it settles (the first
// table of the guide on interrupted applies).
func Resume(r Resumed) Resumption {
	if r.Gone || ReplacesFailed(r.Status, r.KeepFailed) {
		return Resumption{StartNew: true}
	}
	// A failed job kept is not submitted: it can no longer be.
	return Resumption{Submit: r.Submit && !WasSubmitted(r.Status) && !r.Status.Failed()}
}
