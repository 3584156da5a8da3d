package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"sync"
)

// hashFile streams the file into SHA-256 (never reading it whole into
// memory) and returns the hex digest and the size.
func hashFile(p string) (string, int64, error) {
	f, err := openRegularFile(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	sum, n, err := hashReader(f)
	if err != nil {
		return "", 0, readError(p, err)
	}
	return sum, n, nil
}

// hashBytes returns the SHA-256 hex digest of b.
func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Hashing large files: a goroutine reads blocks ahead while the caller's
// goroutine hashes, so the reads (copies out of the page cache, or disk
// waits) overlap SHA-256 instead of adding to it.
const (
	hashBlock  = 1 << 20
	hashBlocks = 4
	// Below this size a plain buffered copy is as fast.
	hashAheadMin = 2 * hashBlock
)

// hashReader returns the SHA-256 hex digest of r's bytes and their count.
// When r is a file, its size chooses between a plain copy and reading ahead.
func hashReader(r io.Reader) (string, int64, error) {
	h := sha256.New()
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < hashAheadMin {
			buf := make([]byte, min(fi.Size()+1, hashBlock))
			n, err := io.CopyBuffer(h, struct{ io.Reader }{r}, buf)
			return hex.EncodeToString(h.Sum(nil)), n, err
		}
	}
	type chunk struct {
		b   []byte
		err error
	}
	full := make(chan chunk, hashBlocks)
	free := make(chan []byte, hashBlocks)
	for range hashBlocks {
		free <- make([]byte, hashBlock)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			var buf []byte
			select {
			case buf = <-free:
			case <-done:
				return
			}
			n, err := io.ReadFull(r, buf)
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = io.EOF
			}
			select {
			case full <- chunk{b: buf[:n], err: err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		close(done)
		wg.Wait() // r is never read after return
	}()
	var total int64
	for {
		c := <-full
		h.Write(c.b)
		total += int64(len(c.b))
		if errors.Is(c.err, io.EOF) {
			return hex.EncodeToString(h.Sum(nil)), total, nil
		}
		if c.err != nil {
			return "", total, c.err
		}
		free <- c.b[:cap(c.b)]
	}
}
