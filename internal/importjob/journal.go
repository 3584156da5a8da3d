package importjob

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Journal holds the jobs that exist on the service but that no Terraform
// state is known to hold yet (Entry), for a later create of the same
// change to settle instead of starting another:
//
//   - a job a create started or resumed, from the moment its id is known
//     (SettleCreate, Started) until a state is known to hold it
//     (StateHolds: a refresh, a plan or a delete finds it) or Terraform
//     closed the provider after its create returned as usual, not cut
//     short (Release, Close);
//   - a tainted job that a replacement's delete hands over to the create
//     that follows it (Delete).
//
// Which entry a create settles, and which it drops, are the rules of
// claims.go; the journal applies them to its store, with the facts of who
// may still hold each entry. Its commands return what they decided, and
// the drops to warn of, as data; errors are what a store could not do.
// A journal is safe for concurrent use by the creates of one process.
type Journal struct {
	store Store
	self  Self
	alive Alive
	// outlives: the store outlives the process (the journal's files),
	// so an entry waits for its run to end; in memory, this process is
	// the only one ever to read it.
	outlives bool

	mu       sync.Mutex
	own      map[JobRef]Entry // the entries this process wrote, as written: not read again
	working  map[JobRef]bool  // the jobs a create of this process works on now
	returned map[JobRef]bool  // the jobs this process's creates returned as usual
	notes    []replacement    // jobs replacements replace, for their creates
	noted    map[JobRef]bool  // the jobs whose replacement's create took its note
}

// Self is the process a journal serves: its pid, and the CLI run that
// started it.
type Self struct {
	PID int
	Run Run
}

// Alive reports whether the process pid, started at start (0: not known),
// still runs; where that cannot be told it says true, so that an entry a
// process may still hold is left to it. internal/localfile's
// ProcessRunning is the system's answer.
type Alive func(pid int, start uint64) bool

// NewJournal returns a journal on store, which outlives the process (the
// journal's files): an entry is claimed only once every process and run
// that may still record it is gone, as alive tells.
func NewJournal(store Store, self Self, alive Alive) *Journal {
	j := newJournal(store, self, alive)
	j.outlives = true
	return j
}

// NewMemoryJournal returns a journal in memory, for a process that has no
// place for the journal's files: it covers a hand-over, and a create cut
// short, within the process alone.
func NewMemoryJournal(self Self) *Journal {
	return newJournal(NewMemoryStore(), self, func(int, uint64) bool { return true })
}

func newJournal(store Store, self Self, alive Alive) *Journal {
	return &Journal{store: store, self: self, alive: alive, own: map[JobRef]Entry{},
		working: map[JobRef]bool{}, returned: map[JobRef]bool{}, noted: map[JobRef]bool{}}
}

// StateHolds applies Found: a state holds job (a refresh, a plan or an
// update of its object found it), which leaves the journal.
func (j *Journal) StateHolds(job JobRef) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stateHolds(job)
}

func (j *Journal) stateHolds(job JobRef) error {
	entries, err := j.entries()
	for _, e := range Found(j.facts(entries), job) {
		err = errors.Join(err, j.remove(e.Job))
	}
	return err
}

// Preview applies Preview: the entry create c would settle, for a plan to
// say so (nil: none). The journal is left as it is.
func (j *Journal) Preview(c Create) (*Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, err := j.entries()
	return Preview(j.facts(entries), c), err
}

// Close applies AtClose: Terraform closed the provider at the end of its
// operation, and writes the state that holds the jobs this process's
// creates returned as usual itself.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries, err := j.entries()
	for _, e := range AtClose(j.facts(entries)) {
		err = errors.Join(err, j.remove(e.Job))
	}
	return err
}

// entries lists the journal's entries, oldest first (j.mu held). The
// entries this process wrote are not read again: no other process changes
// them while this one runs (they are its run's), and an apply of many
// resources would read them all again for each.
func (j *Journal) entries() ([]Entry, error) {
	es, err := j.store.Entries(func(job JobRef) bool { _, mine := j.own[job]; return mine })
	for _, e := range j.own {
		es = append(es, e)
	}
	oldestFirst(es)
	return es, err
}

// facts are entries with who may still hold each (j.mu held): a create
// of this process, another process that still runs, or the run the job
// was returned to.
func (j *Journal) facts(entries []Entry) []Entry {
	out := slices.Clone(entries)
	for i, e := range out {
		out[i].Held = j.working[e.Job] || e.Holder != 0 && e.Holder != j.self.PID && j.alive(e.Holder, 0)
		if j.outlives {
			out[i].RunAlive = e.Run.PID > 0 && j.alive(e.Run.PID, e.Run.Start)
		} else {
			out[i].RunAlive = !e.Returned
		}
		out[i].ReturnedHere = j.returned[e.Job]
	}
	return out
}

// entry is the journal's entry of job (j.mu held).
func (j *Journal) entry(job JobRef) (Entry, bool, error) {
	if e, ok := j.own[job]; ok {
		return e, true, nil
	}
	entries, err := j.entries()
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.Job == job })
	if i < 0 {
		return Entry{}, false, err
	}
	return entries[i], true, err
}

// put writes e as its job's entry (j.mu held).
func (j *Journal) put(e Entry) error {
	written, err := j.store.Put(e)
	if err != nil {
		return err
	}
	j.own[e.Job] = written
	return nil
}

// take removes e, as listed (j.mu held): false when another process took
// it first.
func (j *Journal) take(e Entry) (bool, error) {
	delete(j.own, e.Job)
	return j.store.Take(e)
}

// remove removes every entry of job (j.mu held).
func (j *Journal) remove(job JobRef) error {
	delete(j.returned, job)
	delete(j.own, job)
	return j.store.Forget(job)
}

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
