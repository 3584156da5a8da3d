package provider

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func testSendReader(content []byte, want string) (*sendReader, *atomic.Int64, *atomic.Bool) {
	var sent atomic.Int64
	var verified atomic.Bool
	r := newSendReader(sendSource{src: bytes.NewReader(content), size: int64(len(content)), want: want, name: "gl.csv", verified: &verified}, &sent)
	return r, &sent, &verified
}

// TestSendReaderBytes: every size around the block boundaries is handed
// over exactly, through reads of any size, and counted.
func TestSendReaderBytes(t *testing.T) {
	pattern := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz,\n"), 1000)
	for _, size := range []int{0, 1, 100, sendBlock - 1, sendBlock, sendBlock + 1, (sendBlocks+1)*sendBlock + 3} {
		content := bytes.Repeat(pattern, size/len(pattern)+1)[:size]
		for _, readSize := range []int{1 << 15, 3 << 20} {
			r, sent, verified := testSendReader(content, hashBytes(content))
			got, err := io.ReadAll(readerOf(r, readSize))
			r.Close()
			if err != nil || !bytes.Equal(got, content) {
				t.Fatalf("size %d, reads of %d: %d bytes, %v", size, readSize, len(got), err)
			}
			if sent.Load() != int64(size) || !verified.Load() {
				t.Fatalf("size %d: sent %d, verified %v", size, sent.Load(), verified.Load())
			}
		}
	}
}

// readerOf reads from r at most n bytes at a time.
func readerOf(r io.Reader, n int) io.Reader {
	return readFunc(func(p []byte) (int, error) { return r.Read(p[:min(len(p), n)]) })
}

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }

// TestSendReaderWithholdsLastBlock: on a mismatch, everything but the last
// block is handed over, then an UploadAbortedError that stays.
func TestSendReaderWithholdsLastBlock(t *testing.T) {
	for _, size := range []int{0, 10, sendBlock, 5*sendBlock + 10} {
		content := bytes.Repeat([]byte("x"), size)
		r, _, verified := testSendReader(content, hashBytes([]byte("other")))
		got, err := io.ReadAll(r)
		var aborted *etl.UploadAbortedError
		var changed *changedError
		if !errors.As(err, &aborted) || !errors.As(err, &changed) {
			t.Fatalf("size %d: error %v, want an aborted upload of a changed file", size, err)
		}
		if size > 0 && (len(got) >= size || len(got) < size-sendBlock) {
			t.Fatalf("size %d: handed over %d bytes; want all but the last block", size, len(got))
		}
		if _, err2 := r.Read(make([]byte, 10)); !errors.Is(err2, err) {
			t.Fatalf("size %d: the error is not sticky: %v", size, err2)
		}
		if verified.Load() {
			t.Fatalf("size %d: verified after a mismatch", size)
		}
		r.Close()
	}
}

// failingReaderAt fails reads at or past off.
type failingReaderAt struct {
	r   io.ReaderAt
	off int64
	err error
}

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.off {
		n, _ := f.r.ReadAt(p[:max(f.off-off, 0)], off)
		return n, f.err
	}
	return f.r.ReadAt(p, off)
}

func TestSendReaderShrinksAndFails(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789"), sendBlock*4/10)
	var sent atomic.Int64
	var verified atomic.Bool
	// The file ends early.
	short := sendSource{src: bytes.NewReader(content[:2*sendBlock+5]), size: int64(len(content)), want: hashBytes(content), name: "gl.csv", verified: &verified}
	r := newSendReader(short, &sent)
	_, err := io.ReadAll(r)
	r.Close()
	var aborted *etl.UploadAbortedError
	if !errors.As(err, &aborted) || !strings.Contains(err.Error(), "shrank to 2097157 bytes") {
		t.Fatalf("shrunk: %v", err)
	}
	// A read error is the reader's error.
	boom := errors.New("input/output error")
	failing := sendSource{src: failingReaderAt{bytes.NewReader(content), 2 * sendBlock, boom}, size: int64(len(content)), want: hashBytes(content), name: "gl.csv", verified: &verified}
	r = newSendReader(failing, &sent)
	got, err := io.ReadAll(r)
	r.Close()
	if !errors.Is(err, boom) || len(got) != 2*sendBlock {
		t.Fatalf("read error: %d bytes, %v", len(got), err)
	}
}

// TestSendReaderClose: Close stops the read-ahead at once, also while
// another goroutine reads, and nothing leaks.
func TestSendReaderClose(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 2*sendBlocks*sendBlock)
	before := runtime.NumGoroutine()
	for range 10 {
		r, _, _ := testSendReader(content, hashBytes(content))
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = io.Copy(io.Discard, r)
		}()
		time.Sleep(time.Millisecond)
		r.Close()
		wg.Wait()
		if _, err := r.Read(make([]byte, 1)); err == nil {
			t.Fatal("read after Close succeeded")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines, %d before: the read-ahead leaks", n, before)
	}
}

// TestSendReaderMemory: the buffers are sendBlocks blocks at most, and no
// larger than a small file.
func TestSendReaderMemory(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 10)
	r, _, _ := testSendReader(content, hashBytes(content))
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if len(r.free) != sendBlocks || cap(r.free) != sendBlocks || sendBlocks*sendBlock > 8<<20 {
		t.Fatalf("%d of %d buffers back, %d blocks of %d bytes", len(r.free), cap(r.free), sendBlocks, sendBlock)
	}
	for range sendBlocks {
		if b := <-r.free; cap(b) != len(content) {
			t.Errorf("a buffer of %d bytes for a %d-byte file", cap(b), len(content))
		}
	}
}

// TestSendReaderLazy: a body opened and closed unread (the HTTP client
// does so once to look at it) reads nothing.
func TestSendReaderLazy(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 3*sendBlock)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	of, err := openImportFile(p, hashBytes(content))
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	rc, _ := of.Open()
	rc.Close()
	if n := readsOf(p); n != 0 {
		t.Fatalf("opened and closed: %d reads", n)
	}
	if r, ok := rc.(*sendReader); !ok || len(r.free) != 0 || r.sent.Load() != 0 {
		t.Fatalf("opened and closed: buffers or bytes handed over")
	}
	rc, _ = of.Open()
	if _, err := io.Copy(io.Discard, rc); err != nil || readsOf(p) != 1 {
		t.Fatalf("read: %v, %d reads", err, readsOf(p))
	}
}
