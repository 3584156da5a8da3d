package localfile

// Helpers shared by the package's tests: test files, independent hashes,
// readers of bounded reads and a check for leaked goroutines.

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// writeFile writes b to name in dir and returns its path.
func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// realPath is the name of p with every symbolic link resolved, as a test
// expects the records' key path (t.TempDir may itself be under a link).
func realPath(t testing.TB, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// repeatCSV is a large CSV file: a header line, then n copies of row.
func repeatCSV(header, row string, n int) []byte {
	b := make([]byte, 0, len(header)+1+n*(len(row)+1))
	b = append(append(b, header...), '\n')
	for range n {
		b = append(append(b, row...), '\n')
	}
	return b
}

// sha256Hex is the SHA-256 of b, computed independently of the package.
func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// readerOf reads from r at most n bytes at a time.
func readerOf(r io.Reader, n int) io.Reader {
	return readFunc(func(p []byte) (int, error) { return r.Read(p[:min(len(p), n)]) })
}

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }

// goroutines is the number of goroutines once those of earlier tests that
// are ending have ended: the count stays the same for a few milliseconds.
func goroutines() int {
	n := runtime.NumGoroutine()
	for range 200 {
		time.Sleep(5 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// checkGoroutines fails the test when, after a short wait for goroutines
// that are ending, more run than before.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines, %d before: a goroutine leaks", n, before)
	}
}
