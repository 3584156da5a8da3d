package localfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// JournalDir is the directory of the journal of started jobs: one file per
// job, named by its key (what the job imports) and the job, holding bytes
// it does not read (internal/importjob writes and reads them). A file
// appears whole or not at all, and removing one is what takes it: exactly
// one of several concurrent removers (goroutines or processes) does. Files
// of an earlier layout (the time written between the key and the job) are
// listed and removed alike.
type JournalDir struct {
	dir string
}

// OpenJournalDir returns the journal directory dir, creating it (owner
// only) when it does not exist.
func OpenJournalDir(dir string) (*JournalDir, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &JournalDir{dir: dir}, nil
}

// Dir is the journal's directory.
func (j *JournalDir) Dir() string { return j.dir }

// journalSuffix ends the name of every entry's file.
const journalSuffix = ".job.json"

// keyPrefix is the start of the file name of every entry with key.
func keyPrefix(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:12]) + "-"
}

// Write writes data as the file of key and job, whole or not at all,
// replacing it; the job's files under other keys or in the earlier layout
// are removed after. It returns the file's name, for Remove.
func (j *JournalDir) Write(key, job string, data []byte) (string, error) {
	if strings.ContainsAny(job, `/\.`) || job == "" {
		return "", fmt.Errorf("journal: invalid job %q", job)
	}
	name := keyPrefix(key) + job + journalSuffix
	tmp, err := os.CreateTemp(j.dir, ".tmp-*")
	if err != nil {
		return name, err
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return name, err
	}
	if err := tmp.Close(); err != nil {
		return name, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(j.dir, name)); err != nil {
		return name, err
	}
	return name, j.forgetBut(job, name)
}

// Remove removes the file name, as Names listed it or Write wrote it: true
// when this call removed it, false when another remover did first.
func (j *JournalDir) Remove(name string) (bool, error) {
	if name != filepath.Base(name) || !strings.HasSuffix(name, journalSuffix) {
		return false, fmt.Errorf("journal: %q is not the name of an entry's file", name)
	}
	switch err := os.Remove(filepath.Join(j.dir, name)); {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	default:
		return false, err
	}
}

// Forget removes every file of job.
func (j *JournalDir) Forget(job string) error { return j.forgetBut(job, "") }

// forgetBut removes every file of job but the file keep.
func (j *JournalDir) forgetBut(job, keep string) error {
	names, err := j.Names(func(id string) bool { return id != job })
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		if n != keep {
			if _, err := j.Remove(n); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Names lists, sorted, the files of every job but those skip names (nil:
// none). A directory that is gone holds no file.
func (j *JournalDir) Names(skip func(job string) bool) ([]string, error) {
	des, err := os.ReadDir(j.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		n := de.Name()
		if de.Type().IsRegular() && strings.HasSuffix(n, journalSuffix) && (skip == nil || !skip(jobOf(n))) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names, nil
}

// Read reads the file name.
func (j *JournalDir) Read(name string) ([]byte, error) {
	if name != filepath.Base(name) {
		return nil, fmt.Errorf("journal: %q is not the name of an entry's file", name)
	}
	return os.ReadFile(filepath.Join(j.dir, name)) //nolint:gosec // a name in our own directory
}

// jobOf is the job in the file name of an entry: after the key's prefix,
// and in the earlier layout after the 20 digits of the time written too.
func jobOf(name string) string {
	rest := strings.TrimSuffix(name, journalSuffix)
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		rest = rest[i+1:]
	}
	if len(rest) > 21 && rest[20] == '-' && strings.Trim(rest[:20], "0123456789") == "" {
		rest = rest[21:]
	}
	return rest
}

// ProcessAlive reports whether process pid exists; where that cannot be
// told (see processAlive), it says true: an entry held by a process that
// may still run is left to it.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	return processAlive(pid)
}

// ParentProcess is the process that started this one (for a provider, the
// run of the Terraform or OpenTofu CLI it serves), with its start time in
// the system's own unit (Linux: clock ticks since boot); start is 0 where
// it cannot be read.
func ParentProcess() (pid int, start uint64) {
	pid = os.Getppid()
	start, _ = processStart(pid)
	return pid, start
}

// ProcessRunning reports whether process pid still runs: it exists and,
// where start times can be read and start is not 0, it started at start
// (a later process given the same pid is another). pid 0 or less runs
// nowhere.
func ProcessRunning(pid int, start uint64) bool {
	if !ProcessAlive(pid) {
		return false
	}
	if start == 0 {
		return true
	}
	now, ok := processStart(pid)
	return !ok || now == start
}
