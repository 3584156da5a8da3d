package importjob

import "github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"

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
