package importjob

import (
	"errors"
	"slices"
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
