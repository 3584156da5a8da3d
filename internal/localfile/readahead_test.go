package localfile

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// spySource is a blockSource that counts its calls, and those made once
// the test has set late (after Close returned); with a gate, each call
// waits for it, and entered says a call has begun.
type spySource struct {
	src     blockSource
	calls   atomic.Int64
	closed  atomic.Bool // set by the test once Close has returned
	late    atomic.Int64
	entered chan struct{}
	gate    chan struct{}
}

func (s *spySource) next(buf []byte) (int, error) {
	if s.closed.Load() {
		s.late.Add(1)
	}
	s.calls.Add(1)
	if s.entered != nil {
		select {
		case s.entered <- struct{}{}:
		default:
		}
	}
	if s.gate != nil {
		<-s.gate
	}
	n, err := s.src.next(buf)
	if s.closed.Load() {
		s.late.Add(1)
	}
	return n, err
}

// endless is a source that never ends.
type endless struct{}

func (endless) next(buf []byte) (int, error) {
	for i := range buf {
		buf[i] = byte(i)
	}
	return len(buf), nil
}

// failing yields full blocks of r until it has handed over at bytes, then
// the bytes left of its block with err.
type failing struct {
	r   io.Reader
	at  int
	err error
}

func (f *failing) next(buf []byte) (int, error) {
	if len(buf) <= f.at {
		n, err := io.ReadFull(f.r, buf)
		f.at -= n
		return n, err
	}
	n, _ := io.ReadFull(f.r, buf[:f.at])
	f.at -= n
	return n, f.err
}

// TestAheadReaderBlocks: the blocks come whole and in order, through Next
// and through reads of any size, for every size around the block's.
func TestAheadReaderBlocks(t *testing.T) {
	const block = 64
	before := goroutines()
	for _, size := range []int{0, 1, block - 1, block, block + 1, 5*block + 3, 8 * block} {
		data := testBytes(size)
		for _, blocks := range []int{1, 2, 4} {
			a := newAheadReader(fullBlocks{bytes.NewReader(data)}, block, blocks)
			off := 0
			for {
				b, err := a.Next()
				if errors.Is(err, io.EOF) {
					if b != nil {
						t.Fatalf("size %d: %d bytes with io.EOF", size, len(b))
					}
					break
				}
				if err != nil {
					t.Fatalf("size %d: %v", size, err)
				}
				// Every block is full but the last.
				if len(b) == 0 || len(b) > block || (len(b) < block && off+len(b) != size) {
					t.Fatalf("size %d: a block of %d bytes at %d", size, len(b), off)
				}
				if !bytes.Equal(b, data[off:off+len(b)]) {
					t.Fatalf("size %d: the block at %d is not the source's bytes", size, off)
				}
				off += len(b)
			}
			if off != size {
				t.Fatalf("size %d, %d blocks: %d bytes handed over", size, blocks, off)
			}
			if b, err := a.Next(); b != nil || !errors.Is(err, io.EOF) {
				t.Fatalf("size %d: Next after the end = %d bytes, %v", size, len(b), err)
			}
			a.Close()
			for _, readSize := range []int{1, 7, block, 3 * block} {
				a := newAheadReader(fullBlocks{bytes.NewReader(data)}, block, blocks)
				got, err := io.ReadAll(readerOf(a, readSize))
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("size %d, reads of %d: %d bytes, %v", size, readSize, len(got), err)
				}
				if n, err := a.Read(make([]byte, 8)); n != 0 || !errors.Is(err, io.EOF) {
					t.Fatalf("size %d: Read after the end = %d, %v", size, n, err)
				}
				a.Close()
			}
		}
	}
	checkGoroutines(t, before)
}

// TestAheadReaderSourceError: an error of the source comes after the bytes
// read before it, stays, and ends the reading.
func TestAheadReaderSourceError(t *testing.T) {
	const block = 64
	boom := errors.New("input/output error")
	before := goroutines()
	for _, at := range []int{0, 3 * block, 3*block + 5} {
		data := testBytes(10 * block)
		src := &spySource{src: &failing{r: bytes.NewReader(data), at: at, err: boom}}
		a := newAheadReader(src, block, 2)
		var got []byte
		var err error
		for {
			var b []byte
			if b, err = a.Next(); err != nil {
				break
			}
			got = append(got, b...)
		}
		if !errors.Is(err, boom) || !bytes.Equal(got, data[:at]) {
			t.Fatalf("error at %d: %d bytes, then %v", at, len(got), err)
		}
		for range 2 {
			if b, err := a.Next(); b != nil || !errors.Is(err, boom) {
				t.Fatalf("error at %d: the error is not sticky: %d bytes, %v", at, len(b), err)
			}
			if n, err := a.Read(make([]byte, 8)); n != 0 || !errors.Is(err, boom) {
				t.Fatalf("error at %d: Read after the error = %d, %v", at, n, err)
			}
		}
		a.Close()
		if want := int64(at/block + 1); src.calls.Load() != want {
			t.Errorf("error at %d: %d reads of the source, want %d: it was read past its error", at, src.calls.Load(), want)
		}
		// Through Read: the same bytes, then the error.
		a = newAheadReader(&failing{r: bytes.NewReader(data), at: at, err: boom}, block, 2)
		got, err = io.ReadAll(readerOf(a, 10))
		if !errors.Is(err, boom) || !bytes.Equal(got, data[:at]) {
			t.Fatalf("error at %d, through Read: %d bytes, then %v", at, len(got), err)
		}
		a.Close()
	}
	checkGoroutines(t, before)
}

// TestAheadReaderLazy: nothing is read, and no goroutine runs, before the
// first Next or Read; then it reads ahead, but no more than its blocks.
func TestAheadReaderLazy(t *testing.T) {
	before := goroutines()
	src := &spySource{src: endless{}}
	const blocks = 3
	a := newAheadReader(src, 16, blocks)
	time.Sleep(20 * time.Millisecond)
	if n := src.calls.Load(); n != 0 {
		t.Fatalf("%d reads before the first Next", n)
	}
	if n := runtime.NumGoroutine(); n > before || a.started {
		t.Fatalf("%d goroutines before the first Next, %d before (started %v)", n, before, a.started)
	}
	if b, err := a.Next(); err != nil || len(b) != 16 {
		t.Fatalf("Next = %d bytes, %v", len(b), err)
	}
	// The consumer holds one block: the goroutine fills the others, then
	// waits.
	deadline := time.Now().Add(5 * time.Second)
	for src.calls.Load() < blocks && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	if n := src.calls.Load(); n != blocks {
		t.Errorf("%d reads with one block consumed, want %d (all the blocks, no more)", n, blocks)
	}
	a.Close()
	checkGoroutines(t, before)

	// Read starts it too.
	src = &spySource{src: endless{}}
	a = newAheadReader(src, 16, blocks)
	if n, err := a.Read(make([]byte, 4)); n != 4 || err != nil || src.calls.Load() == 0 {
		t.Fatalf("Read = %d, %v after %d reads", n, err, src.calls.Load())
	}
	a.Close()
	checkGoroutines(t, before)
}

// TestAheadReaderCloseBeforeStart: a reader closed unread reads nothing,
// starts nothing, and says it is closed.
func TestAheadReaderCloseBeforeStart(t *testing.T) {
	before := goroutines()
	src := &spySource{src: endless{}}
	a := newAheadReader(src, 16, 2)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := a.Next(); b != nil || !errors.Is(err, errClosed) {
		t.Fatalf("Next after Close = %d bytes, %v", len(b), err)
	}
	if n, err := a.Read(make([]byte, 4)); n != 0 || !errors.Is(err, errClosed) {
		t.Fatalf("Read after Close = %d, %v", n, err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if n := src.calls.Load(); n != 0 {
		t.Errorf("%d reads of a reader closed unread", n)
	}
	if len(a.free) != 0 {
		t.Errorf("%d buffers allocated for a reader closed unread", len(a.free))
	}
	checkGoroutines(t, before)
}

// TestAheadReaderCloseWhileReading: Close, from another goroutine than the
// consumer's, stops the reading: the source is not read once Close has
// returned, the consumer sees errClosed, and nothing leaks.
func TestAheadReaderCloseWhileReading(t *testing.T) {
	before := goroutines()
	for range 20 {
		src := &spySource{src: endless{}}
		a := newAheadReader(src, 1024, 4)
		done := make(chan error, 1)
		var consumed atomic.Int64
		go func() {
			n, err := io.Copy(io.Discard, a)
			consumed.Store(n)
			done <- err
		}()
		deadline := time.Now().Add(5 * time.Second)
		for src.calls.Load() < 8 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Microsecond)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		src.closed.Store(true)
		if err := <-done; !errors.Is(err, errClosed) {
			t.Fatalf("the consumer saw %v, want errClosed", err)
		}
		if consumed.Load() == 0 {
			t.Fatal("nothing read before Close")
		}
		time.Sleep(2 * time.Millisecond)
		if n := src.late.Load(); n != 0 {
			t.Fatalf("the source was read %d times after Close returned", n)
		}
		if n, err := a.Read(make([]byte, 1)); n != 0 || !errors.Is(err, errClosed) {
			t.Fatalf("Read after Close = %d, %v", n, err)
		}
		if err := a.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
	}
	checkGoroutines(t, before)
}

// TestAheadReaderCloseWaitsForRead: Close returns only once a read of the
// source under way has ended.
func TestAheadReaderCloseWaitsForRead(t *testing.T) {
	before := goroutines()
	src := &spySource{src: endless{}, entered: make(chan struct{}, 1), gate: make(chan struct{})}
	a := newAheadReader(src, 16, 2)
	go func() { _, _ = a.Next() }()
	<-src.entered // the goroutine is in the source's next
	closed := make(chan struct{})
	go func() {
		a.Close()
		src.closed.Store(true)
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while the source was being read")
	case <-time.After(30 * time.Millisecond):
	}
	close(src.gate)
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return once the read ended")
	}
	time.Sleep(5 * time.Millisecond)
	if n := src.late.Load(); n != 0 {
		t.Errorf("the source was read %d times after Close returned", n)
	}
	checkGoroutines(t, before)
}
