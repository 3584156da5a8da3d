// Package jobstatus holds the statuses of an import job, spelled as the
// service spells them, and what each says: whether it is final, whether
// it failed. It is a leaf: the client (internal/etl), the import's rules
// (internal/importjob, without the client's HTTP) and internal/provider
// all name them from here.
package jobstatus

// JobStatus is the status of a job, spelled as the service spells it.
type JobStatus string

// Every job status the service documents.
const (
	// StatusEditing is a job created without starting it (CreateJob): it
	// takes input files until it is submitted, and expires if it never is.
	StatusEditing JobStatus = "EDITING"
	// StatusNotStarted is NOT_STARTED, a documented status of a job not yet
	// running; not final.
	StatusNotStarted JobStatus = "NOT_STARTED"
	// StatusSubmitted is a job submitted to run; not final.
	StatusSubmitted JobStatus = "SUBMITTED"
	// StatusRunning is a job that is running; not final.
	StatusRunning JobStatus = "RUNNING"
	// StatusCompleted is a job that ran to its end: final, the one success.
	StatusCompleted JobStatus = "COMPLETED"
	// StatusError is a job that failed: final.
	StatusError JobStatus = "ERROR"
	// StatusCancelled is a job that was cancelled: final, a failure.
	StatusCancelled JobStatus = "CANCELLED"
	// StatusWaiting is WAITING, a documented status of a job in progress;
	// not final.
	StatusWaiting JobStatus = "WAITING"
	// StatusQueued is a job queued behind another job of the same model;
	// not final.
	StatusQueued JobStatus = "QUEUED"
	// StatusExpired is a created job that was never submitted and expired:
	// final, a failure.
	StatusExpired JobStatus = "EXPIRED"
)

// AllStatuses lists every documented status, in the documentation's order.
var AllStatuses = []JobStatus{
	StatusEditing, StatusNotStarted, StatusSubmitted, StatusRunning, StatusCompleted,
	StatusError, StatusCancelled, StatusWaiting, StatusQueued, StatusExpired,
}

// Final reports whether no further transition can happen: COMPLETED, ERROR,
// CANCELLED or EXPIRED. An unknown status is treated as not final, so a
// caller that waits is bounded by its own timeout rather than misled.
func (s JobStatus) Final() bool {
	return s == StatusCompleted || s.Failed()
}

// Failed reports whether the status is a final failure: ERROR, CANCELLED or
// EXPIRED. (There is no "FAILED" status.)
func (s JobStatus) Failed() bool {
	return s == StatusError || s == StatusCancelled || s == StatusExpired
}
