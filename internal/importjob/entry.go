package importjob

import "time"

// Entry is one job in the journal of jobs no state is known to hold yet:
// started by a create that has not returned, returned to a run that may
// not have recorded it, or handed from a destroyed object to the create
// that follows. What is recorded is written as JSON, one file per job
// (the same fields an earlier release wrote); the facts after it are what
// the journal knows of the entry when it reads it, for the rules.
type Entry struct {
	// Key is what the job imports: the service and its definition.
	Key Key `json:"key"`
	// Job names the job (its service and id).
	Job JobRef `json:"job_id"`
	// Written is when the entry was first written: entries are read
	// oldest first.
	Written time.Time `json:"written"`
	// Holder is the provider process whose create works on the job (0:
	// none).
	Holder int `json:"holder,omitempty"`
	// Prior is the job whose replacement the entry's change was: none
	// for a new object (or a tainted one, planned as new), and for an
	// entry an earlier release wrote, which records no change: it is
	// settled as a new object's.
	Prior JobRef `json:"prior,omitzero"`
	// Run is the CLI run that wrote the entry (zero in an entry an
	// earlier release wrote).
	Run Run `json:"run,omitzero"`
	// HandedOver marks a tainted object's job that its destroy handed to
	// the create that follows: claimable at once.
	HandedOver bool `json:"handed_over,omitempty"`
	// Returned marks a job whose create returned it to its run.
	Returned bool `json:"returned,omitempty"`
	// MayBe lists the jobs of the objects that may be the entry's
	// resource: each started a job for other data, as a new object,
	// while the entry was unsettled. Terraform never says which resource
	// an operation is for.
	MayBe []JobRef `json:"may_be,omitempty"`

	// Held: a create that still runs works on the job. RunAlive: the run
	// of the CLI that wrote the entry still runs, and may yet record the
	// job itself.
	Held, RunAlive bool `json:"-"`
	// ReturnedHere: a create of the process asking returned the job as
	// usual (not cut short by Ctrl-C or a lost connection).
	ReturnedHere bool `json:"-"`

	handle string // where the store keeps it, as the store read or wrote it
}

// Claimable reports whether a create may take e: it was handed over, or
// nothing that may still record it runs.
func (e Entry) Claimable() bool {
	return e.HandedOver || !e.Held && !e.RunAlive
}

// Run names one run of the Terraform or OpenTofu CLI: the process that
// started a provider process (the CLI's child in every operation, the
// plan's and the apply's alike), with its start time where the system
// tells it, so that a later process given the same pid is another run.
type Run struct {
	PID int `json:"pid"`
	// Start is the process's start time in the system's own unit (Linux:
	// clock ticks since boot); 0 where it cannot be read.
	Start uint64 `json:"start,omitempty"`
}
