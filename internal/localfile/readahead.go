package localfile

import (
	"errors"
	"sync"
)

// blockSource yields bytes block by block to an aheadReader's goroutine.
type blockSource interface {
	// next fills the start of buf with the next block and returns its
	// length; with io.EOF once the bytes end (the block may hold the last
	// bytes), or with another error that ends the reading.
	next(buf []byte) (int, error)
}

// errClosed is what a read of a closed aheadReader returns.
var errClosed = errors.New("read-ahead reader closed")

// aheadChunk is one block handed over, and how the reading ended after it.
type aheadChunk struct {
	b   []byte
	err error
}

// aheadReader reads a blockSource in a goroutine of its own, blocks ahead
// of its consumer, so that reading (copies out of the page cache, or disk
// waits) overlaps what the consumer does with the blocks before (hash them,
// or write them to the network). It reads nothing before the first Next or
// Read, and nothing after Close returns. Next and Read are not called
// concurrently with each other; Close may be called from any goroutine.
type aheadReader struct {
	src  blockSource
	size int // of each block
	full chan aheadChunk
	free chan []byte
	stop chan struct{}
	wg   sync.WaitGroup

	mu              sync.Mutex // guards started and closed
	started, closed bool

	// The consumer's state.
	cur, buf []byte
	err      error // sticky
}

// newAheadReader returns a reader of src that keeps up to blocks blocks of
// size bytes in flight.
func newAheadReader(src blockSource, size, blocks int) *aheadReader {
	return &aheadReader{
		src:  src,
		size: max(size, 1),
		full: make(chan aheadChunk, blocks),
		free: make(chan []byte, blocks),
		stop: make(chan struct{}),
	}
}

// start starts the goroutine, once, unless the reader is closed.
func (a *aheadReader) start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.started || a.closed {
		return
	}
	a.started = true
	for range cap(a.free) {
		a.free <- make([]byte, a.size)
	}
	a.wg.Go(a.run)
}

// run reads the blocks in order until the source ends or the reader closes.
func (a *aheadReader) run() {
	for {
		var buf []byte
		select {
		case buf = <-a.free:
		case <-a.stop:
			return
		}
		n, err := a.src.next(buf)
		select {
		case a.full <- aheadChunk{b: buf[:n], err: err}:
		case <-a.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// Next returns the next block, valid until the following call of Next or
// Read; io.EOF after the last one.
func (a *aheadReader) Next() ([]byte, error) {
	if a.buf != nil {
		a.free <- a.buf // never blocks: free has room for every buffer
		a.buf = nil
	}
	for a.err == nil {
		a.start()
		select {
		case c := <-a.full:
			a.buf, a.err = c.b[:cap(c.b)], c.err
			if len(c.b) > 0 {
				return c.b, nil
			}
		case <-a.stop:
			a.err = errClosed
		}
	}
	return nil, a.err
}

// Read copies the blocks out in order (io.Reader).
func (a *aheadReader) Read(p []byte) (int, error) {
	if len(a.cur) == 0 {
		b, err := a.Next()
		if err != nil {
			return 0, err
		}
		a.cur = b
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops the goroutine and waits for it: the source is not read after
// Close returns.
func (a *aheadReader) Close() error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.stop)
	}
	a.mu.Unlock()
	a.wg.Wait()
	return nil
}
