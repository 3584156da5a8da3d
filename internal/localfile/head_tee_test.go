package localfile

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// teeResult is what the check's side of a headTee read, and its error.
type teeResult struct {
	b   []byte
	err error
}

// runTee reads src through a headTee copying left bytes, while another
// goroutine reads the copy with read; it returns what came through the
// tee, its error, and what the other side got.
func runTee(src io.Reader, left int64, read func(*io.PipeReader) teeResult) ([]byte, teeResult, error) {
	pr, pw := io.Pipe()
	done := make(chan teeResult, 1)
	go func() { done <- read(pr) }()
	tee := &headTee{r: src, w: pw, left: left}
	got, err := io.ReadAll(readerOf(tee, 7))
	tee.stop(err)
	return got, <-done, err
}

func readAllPipe(pr *io.PipeReader) teeResult {
	b, err := io.ReadAll(pr)
	return teeResult{b, err}
}

// TestHeadTee: every byte passes through; the first left ones are copied,
// then the copy ends (at the end of the source if it comes first, or with
// its error).
func TestHeadTee(t *testing.T) {
	data := testBytes(100)
	boom := errors.New("input/output error")
	for _, tc := range []struct {
		name     string
		src      io.Reader
		left     int64
		passed   int   // bytes through the tee
		copied   int   // bytes copied
		err      error // the tee's error, and the copy's
		copyErr  error
		readCopy func(*io.PipeReader) teeResult
	}{
		{"a head", bytes.NewReader(data), 10, 100, 10, nil, nil, readAllPipe},
		{"one byte", bytes.NewReader(data), 1, 100, 1, nil, nil, readAllPipe},
		{"the whole source", bytes.NewReader(data), 100, 100, 100, nil, nil, readAllPipe},
		{"a source shorter than its head", bytes.NewReader(data), 1000, 100, 100, nil, nil, readAllPipe},
		{"a source that fails in its head", io.MultiReader(bytes.NewReader(data[:20]), iotest.ErrReader(boom)), 50, 20, 20, boom, boom, readAllPipe},
		{"a source that fails past its head", io.MultiReader(bytes.NewReader(data[:20]), iotest.ErrReader(boom)), 10, 20, 10, boom, nil, readAllPipe},
		{"a copy no longer read", bytes.NewReader(data), 1000, 100, 0, nil, nil, func(pr *io.PipeReader) teeResult {
			pr.CloseWithError(errCheckDone)
			return teeResult{}
		}},
		{"a copy read in part", bytes.NewReader(data), 1000, 100, 12, nil, nil, func(pr *io.PipeReader) teeResult {
			b := make([]byte, 12)
			_, err := io.ReadFull(pr, b)
			pr.CloseWithError(errCheckDone)
			return teeResult{b, err}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, copied, err := runTee(tc.src, tc.left, tc.readCopy)
			if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) || !bytes.Equal(got, data[:tc.passed]) {
				t.Fatalf("through the tee: %d bytes, %v; want %d, %v", len(got), err, tc.passed, tc.err)
			}
			if !errors.Is(copied.err, tc.copyErr) || (tc.copyErr == nil && copied.err != nil) || !bytes.Equal(copied.b, data[:tc.copied]) {
				t.Fatalf("copied: %d bytes, %v; want %d, %v", len(copied.b), copied.err, tc.copied, tc.copyErr)
			}
		})
	}
}

// TestHeadTeeStop: stop ends the copy with the error given (none for
// io.EOF), once.
func TestHeadTeeStop(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct{ stop, want error }{{nil, nil}, {io.EOF, nil}, {boom, boom}} {
		pr, pw := io.Pipe()
		tee := &headTee{r: bytes.NewReader(nil), w: pw, left: 10}
		tee.stop(tc.stop)
		tee.stop(errors.New("a second stop")) // ignored
		if _, err := io.ReadAll(pr); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("stop(%v): the copy ends with %v, want %v", tc.stop, err, tc.want)
		}
		if tee.w != nil {
			t.Errorf("stop(%v): still copying", tc.stop)
		}
	}
}

// TestHeadTeeCheckDone: once the check has returned (its end of the pipe
// is closed), the tee stops copying at the first failed write, and reads
// go on.
func TestHeadTeeCheckDone(t *testing.T) {
	data := testBytes(100)
	pr, pw := io.Pipe()
	pr.CloseWithError(errCheckDone)
	tee := &headTee{r: bytes.NewReader(data), w: pw, left: 1000}
	p := make([]byte, 10)
	if n, err := tee.Read(p); n != 10 || err != nil || !bytes.Equal(p, data[:10]) {
		t.Fatalf("Read = %d, %v", n, err)
	}
	if tee.w != nil || tee.left != 1000 {
		t.Fatalf("after a failed write: still copying (%v), %d bytes left to copy", tee.w != nil, tee.left)
	}
	if rest, err := io.ReadAll(tee); err != nil || !bytes.Equal(rest, data[10:]) {
		t.Fatalf("the rest: %d bytes, %v", len(rest), err)
	}
}
