package localfile

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// TestHashReaderTo: the writer is written every byte in order, for a
// plain reader (read ahead) and for small and large files, and the hash is
// the bytes' SHA-256.
func TestHashReaderTo(t *testing.T) {
	for _, size := range []int{0, 1, hashBlock + 1, hashAheadMin - 1, 3*hashBlock + 5} {
		data := testBytes(size)
		c := newLineCounter()
		sum, n, err := HashReaderTo(iotest.HalfReader(bytes.NewReader(data)), c)
		if err != nil || sum != sha256Hex(data) || n != int64(size) || hex.EncodeToString(c.h.Sum(nil)) != sum {
			t.Fatalf("reader of %d bytes: %s, %d, %v; the writer saw %x", size, sum, n, err, c.h.Sum(nil))
		}
		f, err := os.Open(writeFile(t, t.TempDir(), "gl.csv", data))
		if err != nil {
			t.Fatal(err)
		}
		c = newLineCounter()
		sum, n, err = HashReaderTo(f, c)
		f.Close()
		if err != nil || sum != sha256Hex(data) || n != int64(size) || hex.EncodeToString(c.h.Sum(nil)) != sum {
			t.Fatalf("file of %d bytes: %s, %d, %v", size, sum, n, err)
		}
	}
}

// TestHashReaderToWriterError: an error of the writer ends the read and
// is returned; the goroutines end.
func TestHashReaderToWriterError(t *testing.T) {
	before := goroutines()
	boom := errors.New("counter full")
	c := newLineCounter()
	c.fail = boom
	sum, _, err := HashReaderTo(bytes.NewReader(testBytes(3*hashBlock)), c)
	if !errors.Is(err, boom) || sum != "" {
		t.Fatalf("HashReaderTo = %q, %v; want %v", sum, err, boom)
	}
	checkGoroutines(t, before)
}

// TestCountingBlocks: each block read is written, in order; an error of
// the writer ends the reading with it.
func TestCountingBlocks(t *testing.T) {
	var got []byte
	boom := errors.New("boom")
	w := writeFunc(func(p []byte) (int, error) {
		if bytes.Contains(p, []byte("stop")) {
			return 0, boom
		}
		got = append(got, p...)
		return len(p), nil
	})
	src := countingBlocks{src: fullBlocks{strings.NewReader("abcdefstop!")}, w: w}
	buf := make([]byte, 3)
	for _, want := range []string{"abc", "def"} {
		if n, err := src.next(buf); n != 3 || err != nil || string(buf) != want {
			t.Fatalf("next = %d %q, %v; want %q", n, buf[:n], err, want)
		}
	}
	buf = make([]byte, 8)
	if n, err := src.next(buf); !errors.Is(err, boom) || n != 5 {
		t.Fatalf("next = %d, %v; want 5 bytes and the writer's error", n, err)
	}
	if string(got) != "abcdef" {
		t.Fatalf("written %q, want abcdef", got)
	}
}

// writeFunc is an io.Writer of a function.
type writeFunc func(p []byte) (int, error)

func (f writeFunc) Write(p []byte) (int, error) { return f(p) }
