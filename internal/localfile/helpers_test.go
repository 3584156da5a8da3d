package localfile

// Helpers shared by the package's tests: test files, patterned bytes,
// independent hashes, readers of bounded reads, a check for leaked
// goroutines, a Counter that counts lines, records of made-up files, a
// file's identity as the system gives it, and the count of a file's whole
// reads (readsOf).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
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

// lineCounter is a Counter for the tests: it counts LF bytes (the "rows"
// after a first line) and hashes every byte written, in order.
type lineCounter struct {
	h      hash.Hash
	lines  int64
	bytes  int64
	writes int
	fail   error // returned by every write once set
}

// newLineCounter returns a lineCounter with nothing written.
func newLineCounter() *lineCounter { return &lineCounter{h: sha256.New()} }

func (c *lineCounter) Write(p []byte) (int, error) {
	if c.fail != nil {
		return 0, c.fail
	}
	c.writes++
	c.bytes += int64(len(p))
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	c.h.Write(p)
	return len(p), nil
}

func (c *lineCounter) Result() flatfile.Counts {
	return flatfile.Counts{Key: "CSV/UTF-8", Rows: max(c.lines-1, 0), Size: c.bytes, Columns: []string{"seen", hex.EncodeToString(c.h.Sum(nil))}}
}

func testRecord(dir string, i int) *Record {
	return &Record{
		Path:     filepath.Join(dir, fmt.Sprintf("f%d.csv", i)),
		ID:       Identity{Size: int64(i), MtimeNs: 1, CtimeNs: 2, Inode: uint64(i), Device: 7},
		SHA256:   fmt.Sprintf("%064x", i),
		HashedAt: time.Now().UnixNano(),
	}
}

// systemIdentity is the identity the system gives the file at p, and
// whether it gives one (it does not on every system).
func systemIdentity(t *testing.T, p string) (Identity, bool) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return identityOf(fi)
}

func testBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// fileReads counts, per absolute path, the whole reads of files in this
// test process (ReadHook, set once for the package's tests).
var fileReads sync.Map // string -> *atomic.Int64

func init() {
	h := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		n, _ := fileReads.LoadOrStore(abs, new(atomic.Int64))
		n.(*atomic.Int64).Add(1) //nolint:forcetypeassert // only *atomic.Int64 is stored
	}
	ReadHook.Store(&h)
}

// readsOf returns how many times the file at abs was read whole.
func readsOf(abs string) int64 {
	if n, ok := fileReads.Load(abs); ok {
		return n.(*atomic.Int64).Load() //nolint:forcetypeassert // only *atomic.Int64 is stored
	}
	return 0
}
