package localfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Op is what was being done with a file when it failed.
type Op string

// The operations a PathError names.
const (
	OpStat Op = "stat" // reading its metadata
	OpOpen Op = "open"
	OpRead Op = "read" // a read that failed part way
)

// PathError is a file that cannot be used, found before anything is sent:
// it does not exist, is not a regular file, or cannot be read. Kind says
// which; Err is the system's error, when there is one.
type PathError struct {
	Op   Op
	Kind Kind
	Path string
	Mode fs.FileMode // the file's type, for NotRegular
	Err  error
}

// Kind is what is wrong with a file.
type Kind int

// The kinds of PathError.
const (
	Unreadable Kind = iota // metadata, open or read failed: see Op and Err
	NotFound
	IsDir
	NotRegular
)

func (e *PathError) Error() string {
	switch e.Kind {
	case NotFound:
		return fmt.Sprintf("the file %q does not exist", e.Path)
	case IsDir:
		return fmt.Sprintf("%q is a directory", e.Path)
	case NotRegular:
		return fmt.Sprintf("%q is not a regular file (%s)", e.Path, e.Mode.Type())
	}
	return fmt.Sprintf("%s %q: %s", e.Op, e.Path, e.Err)
}

func (e *PathError) Unwrap() error { return e.Err }

// OpenRegular checks that p names a regular file (stat'ed first, so that
// a named pipe is never opened) and opens it; its errors are *PathErrors.
func OpenRegular(p string) (*os.File, error) {
	fi, err := os.Stat(p) //nolint:gosec // G703: the path is the user's configuration; reading it is the point
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &PathError{Op: OpStat, Kind: NotFound, Path: p, Err: err}
	case err != nil:
		return nil, &PathError{Op: OpStat, Path: p, Err: err}
	case fi.IsDir():
		return nil, &PathError{Op: OpStat, Kind: IsDir, Path: p}
	case !fi.Mode().IsRegular():
		return nil, &PathError{Op: OpStat, Kind: NotRegular, Path: p, Mode: fi.Mode()}
	}
	f, err := os.Open(p) //nolint:gosec // G703: as above
	if err != nil {
		return nil, &PathError{Op: OpOpen, Path: p, Err: err}
	}
	return f, nil
}

// The send of a file is a pipeline: an aheadReader's goroutine reads the
// file in blocks and hashes each block, while the consumer (an HTTP
// client) writes the blocks before it. The block that holds the file's last
// bytes is handed over only once the SHA-256 of the whole file is the
// expected one: on a mismatch, or a file that shrank, the reader returns a
// *ChangedError instead, so the consumer never receives the whole file.
const (
	sendBlock  = 1 << 20
	sendBlocks = 4
)

// Opened is a file opened once for a send: every attempt (Reader) reads
// the same open file from its start and checks its bytes against the
// expected SHA-256 as it hands them over.
type Opened struct {
	f    *os.File
	size int64
	want string
	// opened is when the file was opened and fi its metadata then: with
	// verified, what SentRecord records.
	opened   time.Time
	fi       os.FileInfo
	verified atomic.Bool
	sent     atomic.Int64 // bytes handed over by the current attempt
	mu       sync.Mutex
	readers  []*aheadReader
}

// Open opens the regular file at p to send. want is the SHA-256 its bytes
// must have (the plan's), and then the file is read once, by the send.
// Without it, the file is hashed first, and that hash is what the send
// checks. Its errors are *PathErrors.
func Open(p, want string) (*Opened, error) {
	opened := time.Now()
	f, err := OpenRegular(p)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &PathError{Op: OpStat, Path: p, Err: err}
	}
	o := &Opened{f: f, size: fi.Size(), want: want, opened: opened, fi: fi}
	if want != "" {
		return o, nil
	}
	countRead(p)
	sum, n, err := HashReaderTo(f, nil)
	if err != nil {
		f.Close()
		return nil, &PathError{Op: OpRead, Path: p, Err: err}
	}
	o.size, o.want = n, sum
	return o, nil
}

// Name is the path the file was opened by.
func (o *Opened) Name() string { return o.f.Name() }

// Size is the number of bytes a send hands over.
func (o *Opened) Size() int64 { return o.size }

// SHA256 is the hash the bytes sent must have.
func (o *Opened) SHA256() string { return o.want }

// Sent is the number of bytes the current attempt has handed over.
func (o *Opened) Sent() int64 { return o.sent.Load() }

// Verified reports whether an attempt read every byte of the file and they
// had the expected hash (the read-ahead may have read them before the
// consumer took them all).
func (o *Opened) Verified() bool { return o.verified.Load() }

// Reader returns a fresh reader of the file's bytes for one attempt; it
// reads nothing before its first Read.
func (o *Opened) Reader() (io.ReadCloser, error) {
	o.sent.Store(0)
	src := &sendSource{f: o.f, size: o.size, want: o.want, h: sha256.New(), verified: &o.verified}
	r := newAheadReader(src, int(min(o.size, sendBlock)), sendBlocks)
	o.mu.Lock()
	o.readers = append(o.readers, r)
	o.mu.Unlock()
	return Counted(r, &o.sent), nil
}

// Close stops the attempts' readers and closes the file.
func (o *Opened) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range o.readers {
		r.Close()
	}
	o.readers = nil
	return o.f.Close()
}

// SentRecord is the Record of the bytes sent, checked against checked:
// false unless they matched the expected hash and the file's identity was
// the same when it was opened and after the send.
func (o *Opened) SentRecord(checked string) (*Record, bool) {
	if !o.Verified() {
		return nil, false
	}
	abs, id, ok := stableIdentity(o.f, o.fi)
	if !ok {
		return nil, false
	}
	return &Record{Path: abs, ID: id, SHA256: o.want, HashedAt: o.opened.UnixNano(), Checked: checked}, true
}

// sendSource is the blockSource of one attempt: size bytes of f from its
// start, hashed as they are read and expected to hash to want.
type sendSource struct {
	f        io.ReaderAt
	size     int64
	off      int64
	want     string
	h        hash.Hash
	verified *atomic.Bool
	counted  bool // the read is counted (countRead), once
}

// next reads the next block; the block that ends the file only when the
// whole file checks out.
func (s *sendSource) next(buf []byte) (int, error) {
	if !s.counted {
		s.counted = true
		countRead(s.name())
	}
	if s.off == s.size {
		return 0, s.check()
	}
	want := min(int64(len(buf)), s.size-s.off)
	n, err := s.f.ReadAt(buf[:want], s.off)
	s.h.Write(buf[:n])
	s.off += int64(n)
	switch {
	case int64(n) < want && (err == nil || errors.Is(err, io.EOF)):
		return 0, &ChangedError{Name: s.name(), Size: s.size, Read: s.off}
	case int64(n) < want:
		return 0, err
	case s.off == s.size:
		if err := s.check(); !errors.Is(err, io.EOF) {
			return 0, err
		}
		return n, io.EOF
	}
	return n, nil
}

// check compares the digest of every byte read with the expected one:
// io.EOF when they match.
func (s *sendSource) check() error {
	if got := hex.EncodeToString(s.h.Sum(nil)); got != s.want {
		return &ChangedError{Name: s.name(), Got: got, Want: s.want}
	}
	s.verified.Store(true)
	return io.EOF
}

// name is the file's name, for errors.
func (s *sendSource) name() string {
	if f, ok := s.f.(interface{ Name() string }); ok {
		return f.Name()
	}
	return "(file)"
}

// ChangedError is a send that stopped before its end because the file's
// bytes are not the expected ones: it changed after its hash was taken, or
// while it was being sent (Got and Want), or it shrank (Read of Size).
type ChangedError struct {
	Name       string
	Got, Want  string
	Size, Read int64
}

// AbortsUpload reports that the send stops for good: no attempt can make
// the bytes the expected ones, so an upload client (internal/etl) aborts
// the request before its body is complete and never retries it.
func (e *ChangedError) AbortsUpload() bool { return true }

func (e *ChangedError) Error() string {
	if e.Got == "" {
		return fmt.Sprintf("the file %s shrank to %d bytes while it was being sent (it had %d): the upload was aborted", e.Name, e.Read, e.Size)
	}
	return fmt.Sprintf("the file %s changed after plan or while it was being sent (SHA-256 %s, expected %s): the upload was aborted before its end", e.Name, e.Got, e.Want)
}

// Counted returns r, counting the bytes read through it into n.
func Counted(r io.ReadCloser, n *atomic.Int64) io.ReadCloser { return &countedReader{r, n} }

// countedReader is Counted's reader.
type countedReader struct {
	r io.ReadCloser
	n *atomic.Int64
}

func (c *countedReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}

func (c *countedReader) Close() error { return c.r.Close() }
