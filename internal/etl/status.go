package etl

import "github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"

// JobStatus is the status of a job, spelled as the service spells it: the
// type of internal/etl/jobstatus, which says what each status means.
type JobStatus = jobstatus.JobStatus

// Every job status the service documents (see internal/etl/jobstatus).
const (
	StatusEditing    = jobstatus.StatusEditing
	StatusNotStarted = jobstatus.StatusNotStarted
	StatusSubmitted  = jobstatus.StatusSubmitted
	StatusRunning    = jobstatus.StatusRunning
	StatusCompleted  = jobstatus.StatusCompleted
	StatusError      = jobstatus.StatusError
	StatusCancelled  = jobstatus.StatusCancelled
	StatusWaiting    = jobstatus.StatusWaiting
	StatusQueued     = jobstatus.StatusQueued
	StatusExpired    = jobstatus.StatusExpired
)

// AllStatuses lists every documented status, in the documentation's order.
var AllStatuses = jobstatus.AllStatuses
