package etl

// JobStatus is the status of a job.
type JobStatus string

// Every job status the service documents.
const (
	StatusEditing    JobStatus = "EDITING"
	StatusNotStarted JobStatus = "NOT_STARTED"
	StatusSubmitted  JobStatus = "SUBMITTED"
	StatusRunning    JobStatus = "RUNNING"
	StatusCompleted  JobStatus = "COMPLETED"
	StatusError      JobStatus = "ERROR"
	StatusCancelled  JobStatus = "CANCELLED"
	StatusWaiting    JobStatus = "WAITING"
	StatusQueued     JobStatus = "QUEUED"
	StatusExpired    JobStatus = "EXPIRED"
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
