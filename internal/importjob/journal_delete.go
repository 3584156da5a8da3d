package importjob

import (
	"errors"
	"slices"
)

// What the delete of an object tells the journal, and what a replacement
// tells its create. The framework gives a create no private state, so
// the delete of a replacement that destroys first, and the plan made
// again at apply of one that creates first, note the job it replaces
// (NoteReplacement) for the create of its key (SettleCreate).

// Deleted is the delete of an object that held Job: the destroy half of a
// replacement (Replaced), or a destroy (Replaced nil: terraform destroy,
// or the resource removed from the configuration).
type Deleted struct {
	Job      JobRef
	Replaced *Replaced
}

// replacement is a job a replacement replaces, for the create of key (""
// when the plan did not know it), and whether its object is tainted.
type replacement struct {
	key     Key
	job     JobRef
	tainted bool
}

// Delete settles what the delete of d leaves in the journal. A tainted
// job of the planned definition is handed over to the create that
// follows (HandsOver), which settles it; any other replaced job is held
// by no state from now on, and its create is told which job it replaces.
// A destroy drops the entries it makes impossible (Destroy), returned to
// be warned of. It reports whether the job was handed over.
func (j *Journal) Delete(d Deleted) (handedOver bool, drops []Drop, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if d.Replaced == nil {
		err = j.stateHolds(d.Job)
		entries, rerr := j.entries()
		drops = Destroy(j.facts(entries), d.Job)
		errs := []error{err, rerr}
		for _, drop := range drops {
			errs = append(errs, j.remove(drop.Entry.Job))
		}
		return false, drops, errors.Join(errs...)
	}
	r := *d.Replaced
	handedOver = HandsOver(r)
	if handedOver {
		err = j.put(Entry{Key: r.Key, Job: d.Job, HandedOver: true, Run: j.self.Run})
	} else {
		err = j.stateHolds(d.Job)
	}
	j.noteReplacement(r.Planned, d.Job, !r.Asked) // planned as new: a tainted object
	return handedOver, nil, err
}

// NoteReplacement records that job is replaced (its object tainted or
// not), for the next create of key: the plan made again at apply, right
// before the create of a replacement that creates first, says it.
func (j *Journal) NoteReplacement(key Key, job JobRef, tainted bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.noteReplacement(key, job, tainted)
}

// noteReplacement notes job for key (j.mu held); nothing when a create
// has already taken a note of job (the delete of a replacement that
// created first).
func (j *Journal) noteReplacement(key Key, job JobRef, tainted bool) {
	if !j.noted[job] {
		j.notes = append(j.notes, replacement{key, job, tainted})
	}
}

// replacementFor takes what a replacement noted for the create of key
// (j.mu held): one noted for key, else one noted without a key; a new
// object's create when none (a new object, or a replacement created
// before its destroy).
func (j *Journal) replacementFor(key Key) Create {
	for _, k := range []Key{key, ""} {
		if i := slices.IndexFunc(j.notes, func(r replacement) bool { return r.key == k }); i >= 0 {
			r := j.notes[i]
			j.notes = slices.Delete(j.notes, i, i+1)
			j.noted[r.job] = true
			return Create{Key: key, Replaces: r.job, Tainted: r.tainted}
		}
	}
	return Create{Key: key}
}
