package importjob

import (
	"encoding/json"
	"errors"
)

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
