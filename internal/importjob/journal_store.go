package importjob

import (
	"slices"
	"sync"
	"time"
)

// Store is where a journal keeps its entries: the journal's files
// (FileStore, over internal/localfile's directory), or memory
// (MemoryStore: a provider with no data directory, and the tests). Two
// journals on one store are two processes on one directory.
type Store interface {
	// Put writes e as its job's entry, whole or not at all, replacing any
	// other entry of the job, with Written set to now when zero; it
	// returns e as written, for Take.
	Put(e Entry) (Entry, error)
	// Take removes e, as Entries or Put returned it: true when this call
	// removed it, false when another taker did first.
	Take(e Entry) (bool, error)
	// Forget removes every entry of job.
	Forget(job JobRef) error
	// Entries lists, oldest first, the entries of every job but those
	// skip names (nil: none).
	Entries(skip func(JobRef) bool) ([]Entry, error)
}

// MemoryStore keeps entries in memory, for the life of the process.
type MemoryStore struct {
	mu      sync.Mutex
	entries []Entry
}

// NewMemoryStore returns an empty store in memory.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Put writes e in the place of its job's entry, or last.
func (m *MemoryStore) Put(e Entry) (Entry, error) {
	e = stamped(e)
	m.mu.Lock()
	defer m.mu.Unlock()
	if i := slices.IndexFunc(m.entries, func(x Entry) bool { return x.Job == e.Job }); i >= 0 {
		m.entries[i] = e
	} else {
		m.entries = append(m.entries, e)
	}
	return e, nil
}

// Take removes e's job's entry of e's key.
func (m *MemoryStore) Take(e Entry) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.entries)
	m.entries = slices.DeleteFunc(m.entries, func(x Entry) bool { return x.Job == e.Job && x.Key == e.Key })
	return len(m.entries) < n, nil
}

// Forget removes job's entry.
func (m *MemoryStore) Forget(job JobRef) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries = slices.DeleteFunc(m.entries, func(x Entry) bool { return x.Job == job })
	return nil
}

// Entries lists the entries, oldest first.
func (m *MemoryStore) Entries(skip func(JobRef) bool) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := slices.DeleteFunc(slices.Clone(m.entries), func(e Entry) bool { return skip != nil && skip(e.Job) })
	oldestFirst(out)
	return out, nil
}

// oldestFirst sorts entries by the time they were first written.
func oldestFirst(entries []Entry) {
	slices.SortStableFunc(entries, func(a, b Entry) int { return a.Written.Compare(b.Written) })
}

// stamped is e as a store writes it: Written set to now when zero, and
// none of the facts, which the journal reads anew each time.
func stamped(e Entry) Entry {
	if e.Written.IsZero() {
		e.Written = time.Now().UTC()
	}
	e.Held, e.RunAlive, e.ReturnedHere = false, false, false
	return e
}
