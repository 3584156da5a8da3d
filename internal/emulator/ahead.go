package emulator

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
)

// aheadReader reads src in its own goroutine, hashing (SHA-256) and
// counting the bytes there, and hands them over in large chunks: the
// network read and the hash run in parallel with decoding and parsing.
// Close must be called (it waits for the goroutine, which may be in a Read
// of src, so that src is never touched after Close returns). It is the
// emulator's own on purpose; see the package doc.
type aheadReader struct {
	chunks   chan aheadChunk
	free     chan []byte
	done     chan struct{}
	finished chan struct{}

	cur, curBuf []byte
	err         error
	n           int64  // set by the goroutine before it sends io.EOF
	sum         string // likewise, when hashing
	closed      bool
}

// aheadChunk is one chunk the goroutine read: its bytes, and the error that
// ended the read (io.EOF on the last chunk).
type aheadChunk struct {
	b   []byte
	err error
}

// Sizes of an aheadReader's buffers.
const (
	// aheadChunkSize is the size of each chunk buffer.
	aheadChunkSize = 256 << 10
	// aheadChunks is how many chunk buffers circulate, which bounds how far
	// the goroutine reads ahead.
	aheadChunks = 4
)

// newAheadReader starts reading src ahead in its own goroutine, hashing it
// too when hash is set; the caller must Close the reader.
func newAheadReader(src io.Reader, hash bool) *aheadReader {
	a := &aheadReader{
		chunks:   make(chan aheadChunk, aheadChunks),
		free:     make(chan []byte, aheadChunks),
		done:     make(chan struct{}),
		finished: make(chan struct{}),
	}
	for range aheadChunks {
		a.free <- make([]byte, aheadChunkSize)
	}
	go a.run(src, hash)
	return a
}

// run is the goroutine: it fills free buffers from src, hashing (when
// hashing) and counting, and sends them as chunks until src ends or fails,
// or Close stops it. The count (a.n) and the hash (a.sum) are set before
// the chunk that carries io.EOF is sent.
func (a *aheadReader) run(src io.Reader, hashing bool) {
	defer close(a.finished)
	var h hash.Hash
	if hashing {
		h = sha256.New()
	}
	var total int64
	for {
		var buf []byte
		select {
		case buf = <-a.free:
		case <-a.done:
			return
		}
		n := 0
		var err error
		for n < len(buf) && err == nil {
			var m int
			m, err = src.Read(buf[n:])
			n += m
		}
		total += int64(n)
		if h != nil {
			h.Write(buf[:n])
			if err == io.EOF {
				a.sum = hex.EncodeToString(h.Sum(nil))
			}
		}
		if err == io.EOF {
			a.n = total
		}
		select {
		case a.chunks <- aheadChunk{b: buf[:n], err: err}:
		case <-a.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (a *aheadReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if err := a.fetch(); err != nil {
			return 0, err
		}
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// fetch makes the next chunk current, recycling the current one.
func (a *aheadReader) fetch() error {
	if a.curBuf != nil {
		a.free <- a.curBuf
		a.curBuf = nil
	}
	if a.err != nil {
		return a.err
	}
	c := <-a.chunks
	a.cur, a.curBuf, a.err = c.b, c.b[:cap(c.b)], c.err
	return nil
}

// next returns the next chunk whole; it is valid until the next call.
func (a *aheadReader) next() ([]byte, error) {
	if len(a.cur) == 0 {
		if err := a.fetch(); err != nil {
			return nil, err
		}
	}
	b := a.cur
	a.cur = nil
	return b, nil
}

// WriteTo writes the rest to w, chunk by chunk, without copying.
func (a *aheadReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if len(a.cur) > 0 {
			n, err := w.Write(a.cur)
			total += int64(n)
			a.cur = a.cur[n:]
			if err != nil {
				return total, err
			}
		}
		if err := a.fetch(); err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return total, err
		}
	}
}

// Close stops the reader and waits for its goroutine.
func (a *aheadReader) Close() {
	if !a.closed {
		a.closed = true
		close(a.done)
		<-a.finished
	}
}
