package importjob

import (
	"errors"
	"slices"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// What a create does with the journal, in order: SettleCreate (the job it
// settles instead of starting one, held at once), Started (the job it
// started, held the moment its id is known), Discard (the job it settled
// ended without importing: it starts one instead), Release (it returns).

// Settled is what a create settled with the journal, and the job it holds
// there until it returns.
type Settled struct {
	// Key is the key of the create's job ("" unknown: it settles nothing).
	Key Key
	// Prior is the change its job is for: the live job it replaces; none
	// for a new object or a tainted one (planned as new).
	Prior JobRef
	// Claim is the job it settles instead of starting one, held in the
	// journal; none: it starts a job.
	Claim JobRef
	// Drops are the entries its change makes impossible, dropped, not
	// settled: each is warned of.
	Drops []Drop

	mayBe []JobRef // the entries a new job of it may be the resource of
	held  JobRef   // the job it holds until it returns
}

// settleAttempts bounds how often a create decides again when another
// process takes the entry it would settle first.
const settleAttempts = 8

// SettleCreate settles the journal for the create of key: the replacement
// noted for it (NoteReplacement) says which change it carries out, Settle
// decides, and the entry to settle is taken from the journal and held for
// the create, which records its job in state at once. When the journal
// cannot be read, or other processes keep taking the entry first, it
// returns an *UnsureError: the create starts no job, since the journal
// may hold one of the same data. Other errors are of the drops' removal.
func (j *Journal) SettleCreate(key Key) (*Settled, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	c := j.replacementFor(key)
	s := &Settled{Key: key}
	if !c.Tainted {
		s.Prior = c.Replaces
	}
	for range settleAttempts {
		raw, err := j.entries()
		if err != nil {
			return s, &UnsureError{Key: key, Err: err}
		}
		d := Settle(j.facts(raw), c)
		if d.Claim != nil {
			taken, err := j.take(*d.Claim)
			if err != nil {
				return s, &UnsureError{Key: key, Job: d.Claim.Job, Err: err}
			}
			if !taken {
				continue // another process took it first: decide again
			}
			s.Claim = d.Claim.Job
		}
		s.Drops, s.mayBe = d.Drops, d.MayBe
		var errs []error
		for _, drop := range d.Drops {
			errs = append(errs, j.remove(drop.Entry.Job))
		}
		if !s.Claim.IsZero() {
			errs = append(errs, j.hold(s, s.Claim))
		}
		return s, errors.Join(errs...)
	}
	return s, &UnsureError{Key: key, Contended: true}
}

// Started holds job, which the create of s just started, in the journal
// until the create returns, and notes it in the entries it may be the
// resource of.
func (j *Journal) Started(s *Settled, job JobRef) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	errs := []error{j.hold(s, job)}
	for _, ref := range s.mayBe {
		e, ok, err := j.entry(ref)
		errs = append(errs, err)
		if ok && !slices.Contains(e.MayBe, job) {
			e.MayBe = append(e.MayBe, job)
			errs = append(errs, j.put(e))
		}
	}
	return errors.Join(errs...)
}

// hold records job, which exists and no state holds yet, for the change
// of s, while a create of this process works on it: no other create takes
// it until Release (j.mu held).
func (j *Journal) hold(s *Settled, job JobRef) error {
	j.working[job] = true
	s.held = job
	return j.put(Entry{Key: s.Key, Job: job, Holder: j.self.PID, Prior: s.Prior, Run: j.self.Run})
}

// Discard removes the job the create of s settled, which ended without
// importing or is gone: the create starts a job instead.
func (j *Journal) Discard(s *Settled) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if s.Claim.IsZero() {
		return nil
	}
	delete(j.working, s.Claim)
	s.held = JobRef{}
	return j.remove(s.Claim)
}

// Release ends the create's hold on its job as it returns: the job stays
// in the journal, held by nobody, for the run it was returned to (another
// run takes it only once that run is gone), until a state is known to
// hold it or Terraform closes the provider (Close). cutShort: the
// create's request was cancelled (Ctrl-C: Terraform stopped the provider,
// or went away); its job stays until a state is known to hold it, since a
// second Ctrl-C exits the CLI without writing the state, yet closes the
// provider. In memory, a job returned as usual is forgotten, and one cut
// short stays for the next create of its key.
func (j *Journal) Release(s *Settled, cutShort bool) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	job := s.held
	if job.IsZero() {
		return nil
	}
	delete(j.working, job)
	if j.outlives && !cutShort {
		j.returned[job] = true
	}
	e, ok, err := j.entry(job)
	switch {
	case !ok:
		return err
	case !j.outlives && !cutShort:
		return j.remove(job)
	}
	e.Holder, e.Returned = 0, true
	return errors.Join(err, j.put(e))
}

// Which entry of the journal a create settles, previews or drops, and what
// a destroy, a state found holding a job, and the end of an operation
// remove: the rules of the guide's section on the journal, on entries
// as facts (Journal applies them).

// Create is what a create knows when it starts: its key ("" when its
// definition is not all known: it settles nothing) and the job of the
// object it replaces (none for a new object).
type Create struct {
	Key      Key
	Replaces JobRef
	// Tainted: the object Replaces held is tainted, and Terraform plans a
	// tainted object as new: the create settles an entry of its key
	// whatever that entry's prior, as a new object's does, and its own
	// job records no prior; it still drops what a replacement of Replaces
	// drops.
	Tainted bool
}

// asNew says whether c settles and records as a new object's create.
func (c Create) asNew() bool { return c.Replaces.IsZero() || c.Tainted }

// Reason says why an entry is dropped without being settled.
type Reason int

const (
	// PriorReplaced: the job the entry's change was to replace is
	// replaced with other data.
	PriorReplaced Reason = iota + 1
	// PriorDestroyed: the job the entry's change was to replace is
	// destroyed.
	PriorDestroyed
	// MovedOn: an object that may be the entry's resource (Entry.MayBe)
	// imported other data since, and is now replaced or destroyed.
	MovedOn
)

// Drop is an entry dropped, not settled, and why.
type Drop struct {
	Entry  Entry
	Reason Reason
}

// Settlement is what a create does with the journal: the entry it settles
// (nil: it starts a job), the entries it drops, and, for a new object
// that settles nothing, the entries its new job may be the resource of
// (to add to their MayBe once the job exists).
type Settlement struct {
	Claim *Entry
	Drops []Drop
	MayBe []JobRef
}

// Settle decides what create c does with entries (oldest first). It
// settles the oldest claimable entry of its key whose change is c's: any,
// for a new object (the state never got it, or got the destroy of the job
// it replaced); the same replaced job, for a replacement; the job handed
// over, for a tainted object's. A replacement drops the entries whose
// change it makes impossible: those that were to replace the same job
// with other data, and those the replaced object may be the resource of.
func Settle(entries []Entry, c Create) Settlement {
	s := Settlement{Claim: Preview(entries, c)}
	for _, e := range entries {
		if !e.Claimable() || s.Claim != nil && e.Job == s.Claim.Job || e.Job == c.Replaces {
			continue
		}
		switch {
		case !c.Replaces.IsZero() && e.Prior == c.Replaces && e.Key != c.Key:
			s.Drops = append(s.Drops, Drop{e, PriorReplaced})
		case !c.Replaces.IsZero() && slices.Contains(e.MayBe, c.Replaces):
			s.Drops = append(s.Drops, Drop{e, MovedOn})
		case c.asNew() && s.Claim == nil && !e.HandedOver:
			s.MayBe = append(s.MayBe, e.Job)
		}
	}
	return s
}

// Destroy is what destroying the object that holds job (not a
// replacement: terraform destroy, or the resource removed from the
// configuration) drops: the entries that were to replace that job, and
// those the object may be the resource of.
func Destroy(entries []Entry, job JobRef) []Drop {
	var drops []Drop
	for _, e := range entries {
		switch {
		case !e.Claimable() || e.Job == job:
		case e.Prior == job:
			drops = append(drops, Drop{e, PriorDestroyed})
		case slices.Contains(e.MayBe, job):
			drops = append(drops, Drop{e, MovedOn})
		}
	}
	return drops
}

// Preview is the entry create c would settle (Settle's Claim), for a plan
// to say so: it drops nothing, and the apply decides again.
func Preview(entries []Entry, c Create) *Entry {
	ofKey := func(e Entry) bool { return c.Key != "" && e.Key == c.Key && e.Claimable() }
	i := slices.IndexFunc(entries, func(e Entry) bool {
		return ofKey(e) && (c.Replaces.IsZero() || e.Prior == c.Replaces || e.HandedOver)
	})
	if i < 0 && c.Tainted {
		// A tainted object's create settles as a new object's too, once
		// the replaced object's own entries (its prior, its job handed
		// over) are not there.
		i = slices.IndexFunc(entries, ofKey)
	}
	if i < 0 {
		return nil
	}
	return &entries[i]
}

// Found is what a state found holding job removes from the journal (a
// refresh, a plan or an update of its object): the job's entries, whoever
// holds them. The state settles it.
func Found(entries []Entry, job JobRef) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.Job == job {
			out = append(out, e)
		}
	}
	return out
}

// AtClose is what Terraform closing the provider at the end of an
// operation removes: the jobs its creates returned as usual, which the
// CLI writes to the state it persists now. A job whose create was cut
// short stays: a second Ctrl-C closes the provider, yet the CLI exits
// without writing the state.
func AtClose(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.ReturnedHere {
			out = append(out, e)
		}
	}
	return out
}

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
