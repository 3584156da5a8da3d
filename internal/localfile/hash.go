package localfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// Hashing large files: a goroutine reads blocks ahead (aheadReader) while
// the caller's goroutine hashes them, so that the reads overlap SHA-256
// instead of adding to it.
const (
	hashBlock  = 1 << 20
	hashBlocks = 4
	// hashAheadMin: below this size a plain buffered copy is as fast, and
	// a file to check is read into memory once, hashed and checked from
	// there.
	hashAheadMin = 2 * hashBlock
)

// HashBytes returns the SHA-256 hex digest of b.
func HashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// HashReaderTo returns the SHA-256 hex digest of r's bytes and their
// count, reading ahead unless r is a regular file too small to gain from
// it, and writes every byte, in order, to w (nil: none), such as a
// Counter: the bytes are read once for both. Read
// ahead, each block is written to w on the reading goroutine as soon as
// it is read (countingBlocks), while the caller's goroutine hashes the
// blocks before it, so that w's work overlaps the hash instead of adding
// to it. An error of w ends the read, and is returned. w is not written
// after HashReaderTo returns.
func HashReaderTo(r io.Reader, w io.Writer) (string, int64, error) {
	h := sha256.New()
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < hashAheadMin {
			buf := make([]byte, min(fi.Size()+1, hashBlock))
			var dst io.Writer = h
			if w != nil {
				dst = io.MultiWriter(h, w)
			}
			n, err := io.CopyBuffer(dst, struct{ io.Reader }{r}, buf)
			return hex.EncodeToString(h.Sum(nil)), n, err
		}
	}
	var src blockSource = fullBlocks{r}
	if w != nil {
		src = countingBlocks{src: src, w: w}
	}
	a := newAheadReader(src, hashBlock, hashBlocks)
	defer a.Close() // r is never read, nor w written, after return
	var total int64
	for {
		b, err := a.Next()
		h.Write(b)
		total += int64(len(b))
		switch {
		case errors.Is(err, io.EOF):
			return hex.EncodeToString(h.Sum(nil)), total, nil
		case err != nil:
			return "", total, err
		}
	}
}

// fullBlocks is a blockSource of a plain reader: each block is filled
// whole, but the last.
type fullBlocks struct{ r io.Reader }

func (s fullBlocks) next(buf []byte) (int, error) {
	n, err := io.ReadFull(s.r, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}

// Check checks a file's head: it reads r (the first bytes of the file, up
// to the limit given with it) and returns the first problem found, or nil.
type Check func(r io.Reader) error

// HashOptions says what HashFile does besides hashing, in the same read.
type HashOptions struct {
	// Check, when set, is passed the file's head: at most Limit+1 bytes
	// of a large file, so that it sees whether the file goes on past its
	// own limit.
	Check Check
	Limit int64
	// Counter, when set, is written every byte of the file; the Record's
	// Counts is its Result.
	Counter Counter
}

// HashFile reads the regular file at p whole, once: its SHA-256, its head
// passed to o.Check (checkErr is what it returned) and every byte written
// to o.Counter (the Record's Counts). The Record's Path and ID are set
// only when the file's identity was known and the same before and after
// the read; its Checked is left for the caller. err is a *PathError.
func HashFile(p string, o HashOptions) (r *Record, checkErr, err error) {
	start := time.Now()
	fh, err := OpenRegular(p)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	countRead(p)
	fi, err := fh.Stat()
	if err != nil {
		return nil, nil, &PathError{Op: OpStat, Path: p, Err: err}
	}
	sum, checkErr, err := hashAndCheck(fh, fi.Size(), o)
	if err != nil {
		return nil, nil, &PathError{Op: OpRead, Path: p, Err: err}
	}
	r = &Record{SHA256: sum, HashedAt: start.UnixNano()}
	if o.Counter != nil {
		c := o.Counter.Result()
		r.Counts = &c
	}
	if abs, id, ok := stableIdentity(fh, fi); ok {
		r.Path, r.ID = abs, id
	}
	return r, checkErr, nil
}

// hashAndCheck reads the open file fh of size bytes whole: it returns its
// SHA-256, and what o.Check says of its first o.Limit bytes; it
// writes every byte to o.Counter. One read serves all: below hashAheadMin the
// bytes are read into memory once; above, the bytes read for the hash are
// teed to the check, which runs in a goroutine of its own, and handed to
// the counter block by block (HashReaderTo).
func hashAndCheck(fh *os.File, size int64, o HashOptions) (sum string, checkErr, err error) {
	var w io.Writer
	if o.Counter != nil {
		w = o.Counter
	}
	if o.Check == nil {
		sum, _, err := HashReaderTo(fh, w)
		return sum, nil, err
	}
	if size < hashAheadMin {
		b, err := io.ReadAll(fh)
		if err != nil {
			return "", nil, err
		}
		if w != nil {
			if _, err := w.Write(b); err != nil {
				return "", nil, err
			}
		}
		return HashBytes(b), o.Check(bytes.NewReader(b)), nil
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := o.Check(pr)
		_ = pr.CloseWithError(errCheckDone) // the tee stops feeding
		done <- err
	}()
	tee := &headTee{r: fh, w: pw, left: o.Limit + 1}
	sum, _, err = HashReaderTo(tee, w)
	tee.stop(err)
	checkErr = <-done
	if err != nil {
		return "", nil, err
	}
	return sum, checkErr, nil
}

// Counter counts what a flat file holds (its rows, its header row's
// cells) from its bytes, written to it in order, in chunks of any size, in
// the read that hashes the file (HashFile, HashReaderTo): the file is read
// once for both. flatfile.RowCounter is one.
type Counter interface {
	io.Writer
	// Result is called once, after the last byte: what the bytes hold.
	Result() flatfile.Counts
}

// countingBlocks is a blockSource that writes every block it yields to w,
// on the read-ahead goroutine, as soon as the block is read: counting a
// block overlaps the hashing of the blocks before it on the consumer's
// goroutine, with no handoff of its own and no wait. The blocks are
// yielded in order, so w sees the bytes in order; an error of w ends the
// reading.
type countingBlocks struct {
	src blockSource
	w   io.Writer
}

// next reads the next block from src and writes it to w.
func (c countingBlocks) next(buf []byte) (int, error) {
	n, err := c.src.next(buf)
	if n > 0 {
		if _, werr := c.w.Write(buf[:n]); werr != nil {
			return n, werr
		}
	}
	return n, err
}

// errCheckDone is what the tee's writes see once the check has returned.
var errCheckDone = errors.New("check finished")

// headTee passes reads through and copies the first left bytes to w, then
// closes w. A failed write (the check is done) stops the copying.
type headTee struct {
	r    io.Reader
	w    *io.PipeWriter
	left int64
}

func (t *headTee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.w != nil && n > 0 {
		k := min(int64(n), t.left)
		if _, werr := t.w.Write(p[:k]); werr != nil {
			t.w = nil
		} else if t.left -= k; t.left == 0 {
			t.stop(nil)
		}
	}
	if err != nil {
		t.stop(err)
	}
	return n, err
}

// stop ends the copy: the check sees the end of the file (err nil or
// io.EOF) or the read error.
func (t *headTee) stop(err error) {
	if t.w == nil {
		return
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	_ = t.w.CloseWithError(err)
	t.w = nil
}

// ReadHook, when set (tests only), is called with the name of a file each
// time this process reads it whole: a hash (HashFile, Open without a
// hash) and each attempt of a send. Tests count reads with it.
var ReadHook atomic.Pointer[func(name string)]

// countRead reports one whole read of the file at p to ReadHook, when set.
func countRead(p string) {
	if h := ReadHook.Load(); h != nil {
		(*h)(p)
	}
}
