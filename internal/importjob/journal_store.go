package importjob

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
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

// Files is the journal's directory as internal/localfile keeps it
// (localfile.JournalDir): each entry's bytes in a file of its own, named
// for its key and its job, written whole or not at all, and removed by
// exactly one of several removers (goroutines or processes). It does not
// read what it keeps.
type Files interface {
	// Write writes data as the file of key and job, replacing it, then
	// removes job's other files; it returns the file's name.
	Write(key, job string, data []byte) (name string, err error)
	// Remove removes the file name: true when this call removed it.
	Remove(name string) (bool, error)
	// Forget removes every file of job.
	Forget(job string) error
	// Names lists the files of every job but those skip names (nil: none).
	Names(skip func(job string) bool) ([]string, error)
	// Read reads the file name.
	Read(name string) ([]byte, error)
}

// FileStore keeps the entries in files, as JSON (the fields an earlier
// release wrote: its entries are read alike).
type FileStore struct{ files Files }

// NewFileStore returns the store in files.
func NewFileStore(files Files) *FileStore { return &FileStore{files: files} }

// Put writes e as JSON in its file.
func (s *FileStore) Put(e Entry) (Entry, error) {
	e = stamped(e)
	if e.Job.IsZero() {
		return e, errors.New("journal: an entry names no job")
	}
	b, err := json.Marshal(e)
	if err != nil {
		return e, err
	}
	e.handle, err = s.files.Write(string(e.Key), e.Job.String(), b)
	return e, err
}

// Take removes e's file.
func (s *FileStore) Take(e Entry) (bool, error) {
	if e.handle == "" {
		return false, errors.New("journal: the entry of job " + e.Job.ID() + " was neither listed nor written")
	}
	return s.files.Remove(e.handle)
}

// Forget removes job's files.
func (s *FileStore) Forget(job JobRef) error { return s.files.Forget(job.String()) }

// Entries reads the files, oldest first; a file that cannot be read or
// parsed is not an entry (one being written appears whole, or not).
func (s *FileStore) Entries(skip func(JobRef) bool) ([]Entry, error) {
	var skipName func(string) bool
	if skip != nil {
		skipName = func(job string) bool { r, err := ParseJobRef(job); return err == nil && skip(r) }
	}
	names, err := s.files.Names(skipName)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, n := range names {
		b, err := s.files.Read(n)
		var e Entry
		if err == nil && json.Unmarshal(b, &e) == nil && !e.Job.IsZero() {
			e.handle = n
			out = append(out, e)
		}
	}
	oldestFirst(out)
	return out, nil
}

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

// JobRef names a job on one service: job ids are unique per service only.
// The journal spells it as a hash of the service's address, a hyphen, and
// the id (a name fit for a file); earlier releases wrote the same.
type JobRef struct {
	service string // the first 6 bytes of the SHA-256 of the address, in hex
	id      string
}

// NewJobRef names job id on the service at address.
func NewJobRef(address, id string) JobRef {
	sum := sha256.Sum256([]byte(address))
	return JobRef{service: hex.EncodeToString(sum[:6]), id: id}
}

// ID is the job's id on its service.
func (j JobRef) ID() string { return j.id }

// IsZero reports whether j names no job.
func (j JobRef) IsZero() bool { return j == JobRef{} }

// String is j as the journal spells it; "" for no job.
func (j JobRef) String() string {
	if j.IsZero() {
		return ""
	}
	return j.service + "-" + j.id
}

// MarshalText spells j as String does.
func (j JobRef) MarshalText() ([]byte, error) { return []byte(j.String()), nil }

// UnmarshalText reads j as String spells it ("" is no job).
func (j *JobRef) UnmarshalText(b []byte) error {
	r, err := ParseJobRef(string(b))
	*j = r
	return err
}

// ParseJobRef reads a JobRef as String spells it; "" is no job.
func ParseJobRef(s string) (JobRef, error) {
	if s == "" {
		return JobRef{}, nil
	}
	service, id, ok := strings.Cut(s, "-")
	if !ok || service == "" || id == "" || strings.ContainsAny(id, `-/\.`) {
		return JobRef{}, fmt.Errorf("job reference %q is not <service hash>-<job id>", s)
	}
	return JobRef{service: service, id: id}, nil
}

// Key is what a job imports, on which service: the definition (as
// Definition.String spells it) on the service's address. A create settles
// only a job of its own key. Its spelling is kept in the journal's
// entries and the names of their files: an earlier release's entries match
// only while it stays.
type Key string

// NewKey is the key of definition (Definition.String) on the service at
// address; "" (no key: it settles nothing) when definition is "".
func NewKey(address, definition string) Key {
	if definition == "" {
		return ""
	}
	return Key(address + "\x00" + definition)
}

// KeyOn is d's key on the service at address; "" when d is not all known.
func (d Definition) KeyOn(address string) Key {
	if !d.Known() {
		return ""
	}
	return NewKey(address, d.String())
}
