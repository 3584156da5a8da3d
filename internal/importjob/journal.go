package importjob

import (
	"errors"
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
