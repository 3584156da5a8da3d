package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"
	"sync/atomic"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The send of a file is a pipeline: a goroutine reads the file ahead in
// blocks and hashes each block, while the HTTP client writes the blocks
// before it, so reading, hashing and writing overlap. At most sendBlocks
// blocks are in flight. The block that holds the file's last bytes is
// handed over only once the SHA-256 of the whole file is the expected one:
// on a mismatch (or a file that shrank) the reader returns an
// *etl.UploadAbortedError instead, so the request body is never complete
// and is not retried.
const (
	sendBlock  = 1 << 20
	sendBlocks = 4
)

// errSendClosed: the body was closed while it was being read.
var errSendClosed = errors.New("upload body closed")

// sendChunk is a block read and hashed, or how the reading ended.
type sendChunk struct {
	b   []byte
	err error // io.EOF after the last block
}

// sendReader is the body of one attempt. It reads nothing before its first
// Read (the HTTP client opens a body once just to look at it). Read and
// Close may be called from different goroutines; Read is not called
// concurrently with itself.
type sendReader struct {
	src  sendSource
	full chan sendChunk
	free chan []byte
	stop chan struct{}
	wg   sync.WaitGroup
	sent *atomic.Int64 // bytes handed over (progress)

	mu              sync.Mutex // guards started and closed
	started, closed bool

	// Read's own state.
	cur, buf []byte
	err      error // sticky
}

// sendSource is what a sendReader reads: size bytes of src, expected to
// hash to want. verified is set once they do.
type sendSource struct {
	src      io.ReaderAt
	size     int64
	want     string
	name     string
	verified *atomic.Bool
}

// newSendReader returns the reader of s; its first Read starts the
// read-ahead.
func newSendReader(s sendSource, sent *atomic.Int64) *sendReader {
	return &sendReader{
		src:  s,
		full: make(chan sendChunk, sendBlocks+1),
		free: make(chan []byte, sendBlocks),
		stop: make(chan struct{}),
		sent: sent,
	}
}

// start starts the read-ahead, once, unless the reader is closed.
func (r *sendReader) start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started || r.closed {
		return
	}
	r.started = true
	block := max(min(r.src.size, sendBlock), 1)
	for range sendBlocks {
		r.free <- make([]byte, block)
	}
	countRead(r.src.name)
	r.wg.Add(1)
	go r.produce(r.src)
}

// produce reads, hashes and hands over the blocks in order.
func (r *sendReader) produce(s sendSource) {
	defer r.wg.Done()
	h := sha256.New()
	for off := int64(0); off < s.size; {
		var buf []byte
		select {
		case buf = <-r.free:
		case <-r.stop:
			return
		}
		want := min(int64(len(buf)), s.size-off)
		n, err := s.src.ReadAt(buf[:want], off)
		h.Write(buf[:n])
		off += int64(n)
		switch {
		case int64(n) < want && (err == nil || errors.Is(err, io.EOF)):
			r.put(sendChunk{err: &etl.UploadAbortedError{Err: fmt.Errorf("the file %s shrank to %d bytes while it was being sent (it had %d): the upload was aborted", s.name, off, s.size)}})
			return
		case int64(n) < want:
			r.put(sendChunk{err: err})
			return
		case off == s.size:
			// The last bytes: handed over only when the whole file checks out.
			if err := checkSent(h, s); err != nil {
				r.put(sendChunk{err: err})
				return
			}
		}
		if !r.put(sendChunk{b: buf[:n]}) {
			return
		}
	}
	if s.size == 0 {
		if err := checkSent(h, s); err != nil {
			r.put(sendChunk{err: err})
			return
		}
	}
	r.put(sendChunk{err: io.EOF})
}

// checkSent compares the digest of all the bytes read with the expected one.
func checkSent(h hash.Hash, s sendSource) error {
	if got := hex.EncodeToString(h.Sum(nil)); got != s.want {
		return &etl.UploadAbortedError{Err: &changedError{name: s.name, got: got, want: s.want}}
	}
	s.verified.Store(true)
	return nil
}

// put hands c over; false when the reader was closed.
func (r *sendReader) put(c sendChunk) bool {
	select {
	case r.full <- c:
		return true
	case <-r.stop:
		return false
	}
}

func (r *sendReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	r.start()
	if len(r.cur) == 0 {
		if r.buf != nil {
			r.free <- r.buf // never blocks: free holds every buffer
			r.buf = nil
		}
		select {
		case c := <-r.full:
			if c.err != nil {
				r.err = c.err
				return 0, c.err
			}
			r.cur, r.buf = c.b, c.b[:cap(c.b)]
		case <-r.stop:
			r.err = errSendClosed
			return 0, r.err
		}
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	r.sent.Add(int64(n))
	return n, nil
}

// Close stops the read-ahead and waits for it: the file is not read after
// Close returns.
func (r *sendReader) Close() error {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.stop)
	}
	r.mu.Unlock()
	r.wg.Wait()
	return nil
}
