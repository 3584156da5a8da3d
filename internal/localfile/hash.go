package localfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"time"
)

// Hashing large files: a goroutine reads blocks ahead (aheadReader) while
// the caller's goroutine hashes them, so that the reads overlap SHA-256
// instead of adding to it.
const (
	hashBlock  = 1 << 20
	hashBlocks = 4
	// hashAheadMin: below this size a plain buffered copy is as fast.
	hashAheadMin = 2 * hashBlock
	// smallFile: files below this size are read into memory once, hashed
	// and checked from there.
	smallFile = 2 << 20
)

// HashBytes returns the SHA-256 hex digest of b.
func HashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// HashReader returns the SHA-256 hex digest of r's bytes and their count,
// reading ahead unless r is a regular file too small to gain from it.
func HashReader(r io.Reader) (string, int64, error) {
	h := sha256.New()
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < hashAheadMin {
			buf := make([]byte, min(fi.Size()+1, hashBlock))
			n, err := io.CopyBuffer(h, struct{ io.Reader }{r}, buf)
			return hex.EncodeToString(h.Sum(nil)), n, err
		}
	}
	a := newAheadReader(fullBlocks{r}, hashBlock, hashBlocks)
	defer a.Close() // r is never read after return
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

// HashPath reads the regular file at p whole: its SHA-256, and its head
// passed to check in the same read (nil: no check; checkErr is what check
// returned; check reads at most limit+1 bytes of a large file, so that it
// sees whether the file goes on past its own limit). The Record's Path and ID are set only when the
// file's identity was known and the same before and after the read; its
// Checked is left for the caller. err is a *PathError.
func HashPath(p string, limit int64, check Check) (r *Record, checkErr, err error) {
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
	sum, checkErr, err := hashAndCheck(fh, fi.Size(), limit, check)
	if err != nil {
		return nil, nil, &PathError{Op: OpRead, Path: p, Err: err}
	}
	r = &Record{SHA256: sum, HashedAt: start.UnixNano()}
	if abs, id, ok := stableIdentity(fh, fi); ok {
		r.Path, r.ID = abs, id
	}
	return r, checkErr, nil
}

// hashAndCheck reads the open file fh of size bytes whole: it returns its
// SHA-256 and what check says of its first limit bytes. One read serves
// both: below smallFile the bytes are read into memory once; above, the
// bytes read for the hash are teed to check, which runs in a goroutine of
// its own.
func hashAndCheck(fh *os.File, size, limit int64, check Check) (sum string, checkErr, err error) {
	if check == nil {
		sum, _, err := HashReader(fh)
		return sum, nil, err
	}
	if size < smallFile {
		b, err := io.ReadAll(fh)
		if err != nil {
			return "", nil, err
		}
		return HashBytes(b), check(bytes.NewReader(b)), nil
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := check(pr)
		_ = pr.CloseWithError(errCheckDone) // the tee stops feeding
		done <- err
	}()
	tee := &headTee{r: fh, w: pw, left: limit + 1}
	sum, _, err = HashReader(tee)
	tee.stop(err)
	checkErr = <-done
	if err != nil {
		return "", nil, err
	}
	return sum, checkErr, nil
}
