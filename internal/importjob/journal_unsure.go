package importjob

import "fmt"

// UnsureError is why a create cannot tell which job of the journal it
// should settle: the journal could not be read or taken from (Err), or
// other processes took the entry it would settle first, time after time
// (Contended). The create starts no job: the journal may hold one of the
// same data, and a second job would import it twice. Applying again
// decides again.
type UnsureError struct {
	Key       Key
	Job       JobRef // the entry it would have settled, if known
	Contended bool
	Err       error
}

func (e *UnsureError) Error() string {
	if e.Contended {
		return fmt.Sprintf("the entry to settle was taken by another process %d times in a row", settleAttempts)
	}
	if !e.Job.IsZero() {
		return fmt.Sprintf("taking job %s from the journal: %v", e.Job.ID(), e.Err)
	}
	return fmt.Sprintf("reading the journal: %v", e.Err)
}

func (e *UnsureError) Unwrap() error { return e.Err }
