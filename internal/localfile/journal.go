package localfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Journal is a directory of jobs that were started but are not yet known
// to be recorded anywhere else: one file per job, named by its key (what
// the job imports) and the job id. A process that starts a job writes its
// entry at once and removes it once the job is recorded; a process killed
// in between leaves the entry for the next one to find. Which entry a
// process may take is its caller's rule; taking one removes its file,
// which exactly one of several concurrent takers (goroutines or
// processes) achieves. Files of an earlier layout (the time written
// between the key and the job id) are read and removed alike.
type Journal struct {
	dir string
}

// JournalEntry is one job in a Journal.
type JournalEntry struct {
	// Key is what the job imports, as its creator spells it; a claim
	// matches it exactly.
	Key string `json:"key"`
	// JobID is the job's id.
	JobID string `json:"job_id"`
	// Written is when the entry was written.
	Written time.Time `json:"written"`
	// Holder is the process that holds the job while it works on it (0:
	// none, the job waits for a claim).
	Holder int `json:"holder,omitempty"`
	// Prior is the job whose replacement the job was started for (""
	// for a new object); Run the CLI run that wrote the entry (zero in an
	// entry of an earlier layout). HandedOver marks a job handed from one
	// object to the create that follows; Returned a job whose create
	// returned it to its run.
	Prior      string `json:"prior,omitempty"`
	Run        Run    `json:"run,omitzero"`
	HandedOver bool   `json:"handed_over,omitempty"`
	Returned   bool   `json:"returned,omitempty"`
	// MayBe lists the jobs of objects that may be the entry's resource
	// (its caller's rule says which).
	MayBe []string `json:"may_be,omitempty"`

	file string // the entry's file, as Entries read it
}

// OpenJournal returns the journal in dir, creating dir (owner only) when
// it does not exist.
func OpenJournal(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Journal{dir: dir}, nil
}

// Dir is the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// journalSuffix ends the name of every entry's file.
const journalSuffix = ".job.json"

// keyPrefix is the start of the file name of every entry with key.
func keyPrefix(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:12]) + "-"
}

// Put writes e (Written set to now when zero) as the entry of its job:
// the file appears whole or not at all, replacing the job's entry of the
// same key; entries of the job under other keys or in the earlier layout
// are removed after. It returns e as written, for Take.
func (j *Journal) Put(e JournalEntry) (JournalEntry, error) {
	if e.Written.IsZero() {
		e.Written = time.Now().UTC()
	}
	if strings.ContainsAny(e.JobID, `/\.`) || e.JobID == "" {
		return e, fmt.Errorf("journal: invalid job id %q", e.JobID)
	}
	b, err := json.Marshal(e)
	if err != nil {
		return e, err
	}
	e.file = keyPrefix(e.Key) + e.JobID + journalSuffix
	tmp, err := os.CreateTemp(j.dir, ".tmp-*")
	if err != nil {
		return e, err
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return e, err
	}
	if err := tmp.Close(); err != nil {
		return e, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(j.dir, e.file)); err != nil {
		return e, err
	}
	return e, j.forgetBut(e.JobID, e.file)
}

// Take removes the entry e, as Entries listed it or Put wrote it: true
// when this call removed it, false when another taker did first.
func (j *Journal) Take(e JournalEntry) (bool, error) {
	if e.file == "" {
		return false, fmt.Errorf("journal: entry of job %q was neither listed nor written", e.JobID)
	}
	switch err := os.Remove(filepath.Join(j.dir, e.file)); {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	default:
		return false, err
	}
}

// Forget removes every entry of job id: it is recorded elsewhere now.
func (j *Journal) Forget(jobID string) error { return j.forgetBut(jobID, "") }

// forgetBut removes every entry of job id but the file keep.
func (j *Journal) forgetBut(jobID, keep string) error {
	names, err := j.names("")
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		if n != keep && strings.HasSuffix(n, "-"+jobID+journalSuffix) {
			if err := os.Remove(filepath.Join(j.dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Entries lists every entry, oldest first.
func (j *Journal) Entries() ([]JournalEntry, error) { return j.EntriesBut(nil) }

// EntriesBut lists, oldest first, the entries of every job but those skip
// names (nil: none), without reading their files: a caller that keeps its
// own entries in memory reads only the others'.
func (j *Journal) EntriesBut(skip func(jobID string) bool) ([]JournalEntry, error) {
	names, err := j.names("")
	if err != nil {
		return nil, err
	}
	var out []JournalEntry
	for _, n := range names {
		if skip != nil && skip(jobIDOf(n)) {
			continue
		}
		if e, err := j.read(n); err == nil {
			e.file = n
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b JournalEntry) int { return a.Written.Compare(b.Written) })
	return out, nil
}

// jobIDOf is the job id in the file name of an entry: after the key's
// prefix, and in the earlier layout after the 20 digits of the time
// written too.
func jobIDOf(name string) string {
	rest := strings.TrimSuffix(name, journalSuffix)
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		rest = rest[i+1:]
	}
	if len(rest) > 21 && rest[20] == '-' && isDigits(rest[:20]) {
		rest = rest[21:]
	}
	return rest
}

// isDigits reports whether s is decimal digits alone.
func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// names lists, sorted, the entries' file names that start with prefix.
func (j *Journal) names(prefix string) ([]string, error) {
	des, err := os.ReadDir(j.dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		n := de.Name()
		if de.Type().IsRegular() && strings.HasPrefix(n, prefix) && strings.HasSuffix(n, journalSuffix) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// read reads the entry in file name.
func (j *Journal) read(name string) (JournalEntry, error) {
	var e JournalEntry
	b, err := os.ReadFile(filepath.Join(j.dir, name)) //nolint:gosec // a name listed in our own directory
	if err != nil {
		return e, err
	}
	return e, json.Unmarshal(b, &e)
}
