package localfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestHashBytes(t *testing.T) {
	// FIPS 180-2's example.
	if got := HashBytes([]byte("abc")); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("HashBytes(abc) = %s", got)
	}
	if got := HashBytes(nil); got != sha256Hex(nil) {
		t.Errorf("HashBytes(nil) = %s", got)
	}
}

// TestHashReaderToWithoutWriter: any reader, a small file or a large one:
// the SHA-256 of every byte, and their count.
func TestHashReaderToWithoutWriter(t *testing.T) {
	for _, size := range []int{0, 1, hashBlock - 1, hashBlock, hashBlock + 1, hashAheadMin - 1, hashAheadMin, 3*hashBlock + 5} {
		data := testBytes(size)
		// A plain reader, read ahead.
		sum, n, err := HashReaderTo(iotest.HalfReader(bytes.NewReader(data)), nil)
		if err != nil || sum != sha256Hex(data) || n != int64(size) {
			t.Fatalf("reader of %d bytes: %s, %d, %v", size, sum, n, err)
		}
		// A file: copied below hashAheadMin, read ahead from it.
		f, err := os.Open(writeFile(t, t.TempDir(), "gl.csv", data))
		if err != nil {
			t.Fatal(err)
		}
		sum, n, err = HashReaderTo(f, nil)
		f.Close()
		if err != nil || sum != sha256Hex(data) || n != int64(size) {
			t.Fatalf("file of %d bytes: %s, %d, %v", size, sum, n, err)
		}
	}
	// A read error ends the hash, after the bytes read before it.
	boom := errors.New("input/output error")
	data := testBytes(3*hashBlock + 5)
	sum, n, err := HashReaderTo(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)), nil)
	if !errors.Is(err, boom) || sum != "" || n != int64(len(data)) {
		t.Fatalf("failing reader: %q, %d, %v", sum, n, err)
	}
}

func TestHashFile(t *testing.T) {
	// A few MiB, streamed.
	content := repeatCSV("Account,Amount,City", "4000,100.50,Montréal", 200_000)
	dir := t.TempDir()
	p := writeFile(t, dir, "big.csv", content)
	_, id, hasIdentity := StatPath(p)
	start := time.Now()
	r, checkErr, err := HashFile(p, HashOptions{})
	end := time.Now()
	if err != nil || checkErr != nil || r == nil || r.SHA256 != sha256Hex(content) {
		t.Fatalf("HashFile = %+v, %v, %v", r, checkErr, err)
	}
	if r.HashedAt < start.UnixNano() || r.HashedAt > end.UnixNano() || r.Checked != "" {
		t.Errorf("record %+v: hashed at %d, want between %d and %d, and not checked", r, r.HashedAt, start.UnixNano(), end.UnixNano())
	}
	key := realPath(t, p)
	if hasIdentity != (r.Path != "") || (hasIdentity && (r.Path != key || r.ID != id)) {
		t.Errorf("record %+v; want the path %s and identity %+v (known: %v)", r, key, id, hasIdentity)
	}
	// By a relative path: the record names the absolute one.
	t.Chdir(dir)
	if r, _, err := HashFile("big.csv", HashOptions{}); err != nil || r.SHA256 != sha256Hex(content) || (hasIdentity && r.Path != key) {
		t.Errorf("relative path: %+v, %v", r, err)
	}
	// What cannot be read: a *PathError and no record.
	var pe *PathError
	if r, checkErr, err := HashFile(filepath.Join(dir, "missing.csv"), HashOptions{Check: func(io.Reader) error { return nil }}); r != nil || checkErr != nil || !errors.As(err, &pe) || pe.Kind != NotFound {
		t.Errorf("missing file: %+v, %v, %v", r, checkErr, err)
	}
}

// TestHashFileCheck: the check sees all of a small file, and the first
// limit+1 bytes of a large one, in the same read as the hash; what it
// returns comes back as checkErr; a check that stops reading early does
// not stop the hash.
func TestHashFileCheck(t *testing.T) {
	dir := t.TempDir()
	small := []byte("Account,Amount\n4000,1\n")
	large := repeatCSV("Account,Amount", "4000,100", hashAheadMin/9+1000)
	if len(large) <= hashAheadMin {
		t.Fatalf("%d bytes: not large", len(large))
	}
	size := int64(len(large))
	smallPath := writeFile(t, dir, "small.csv", small)
	largePath := writeFile(t, dir, "large.csv", large)
	for _, tc := range []struct {
		name    string
		path    string
		content []byte
		limit   int64
		seen    int // bytes the check sees
	}{
		{"small, within its limit", smallPath, small, 1000, len(small)},
		{"small, past its limit: all the same", smallPath, small, 5, len(small)},
		{"large, past its limit", largePath, large, 1000, 1001},
		{"large, limit 0", largePath, large, 0, 1},
		{"large, a limit of a block", largePath, large, hashBlock, hashBlock + 1},
		{"large, limit one byte short", largePath, large, size - 1, int(size)},
		{"large, limit its size", largePath, large, size, int(size)},
		{"large, within its limit", largePath, large, 2 * size, int(size)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen []byte
			r, checkErr, err := HashFile(tc.path, HashOptions{Check: func(r io.Reader) error {
				var err error
				seen, err = io.ReadAll(r)
				return err
			}, Limit: tc.limit})
			if err != nil || checkErr != nil || r.SHA256 != sha256Hex(tc.content) {
				t.Fatalf("HashFile = %+v, %v, %v", r, checkErr, err)
			}
			if !bytes.Equal(seen, tc.content[:tc.seen]) {
				t.Fatalf("the check saw %d bytes, want the first %d", len(seen), tc.seen)
			}
		})
	}
	problem := errors.New("line 2 has 3 fields")
	for _, tc := range []struct {
		name  string
		check Check
		want  error
	}{
		{"a problem, after reading it all", func(r io.Reader) error { _, _ = io.Copy(io.Discard, r); return problem }, problem},
		{"a problem, early", func(r io.Reader) error { _, _ = r.Read(make([]byte, 10)); return problem }, problem},
		{"none, early", func(r io.Reader) error { _, err := io.ReadFull(r, make([]byte, 10)); return err }, nil},
		{"a problem, unread", func(io.Reader) error { return problem }, problem},
		{"none, unread", func(io.Reader) error { return nil }, nil},
	} {
		for _, f := range []struct {
			path    string
			content []byte
		}{{smallPath, small}, {largePath, large}} {
			// A limit past the file: the check could read it all.
			r, checkErr, err := HashFile(f.path, HashOptions{Check: tc.check, Limit: 2 * size})
			if err != nil || !errors.Is(checkErr, tc.want) || (tc.want == nil && checkErr != nil) || r.SHA256 != sha256Hex(f.content) {
				t.Errorf("%s, %d bytes: %+v, %v, %v; want the file's hash and %v", tc.name, len(f.content), r, checkErr, err, tc.want)
			}
		}
	}
}

// BenchmarkHashFile: the plan-time read of a 256 MiB CSV file (from the
// page cache), three ways on one fixture: a plain io.Copy into SHA-256;
// HashFile, which reads ahead in a goroutine; and HashFile with a check,
// which also reads the first 64 MiB in the same read (the check runs in its
// own goroutine and should cost little).
func BenchmarkHashFile(b *testing.B) {
	p, n := writeCSVFixture(b, 256<<20)

	b.Run("io.Copy", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(sha256.New(), f); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	b.Run("HashFile", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := HashFile(p, HashOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HashFileChecked", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		readAll := func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }
		for b.Loop() {
			if _, checkErr, err := HashFile(p, HashOptions{Check: readAll, Limit: 64 << 20}); err != nil || checkErr != nil {
				b.Fatal(err, checkErr)
			}
		}
	})
}

// writeCSVFixture writes a CSV of about size bytes and returns its path
// and exact size; the bytes live on disk only once it returns.
func writeCSVFixture(b *testing.B, size int) (string, int64) {
	b.Helper()
	const row = "4000,Entity 1,123.25,memo padded to a fixed width of sixty-four"
	data := repeatCSV("Account,Entity,Amount,Memo", row, size/(len(row)+1))
	return writeFile(b, b.TempDir(), "big.csv", data), int64(len(data))
}

// TestHashFileCounts: the counter is written every byte of the file in
// the one read that hashes it, small or large, checked or not; the
// record's Counts is what it finished with, under the key, with the size.
func TestHashFileCounts(t *testing.T) {
	dir := t.TempDir()
	small := []byte("Account,Amount\n4000,1\n4001,2\n")
	large := repeatCSV("Account,Amount", "4000,100", hashAheadMin/9+1000)
	for _, tc := range []struct {
		name    string
		content []byte
		check   Check
	}{
		{"small", small, nil},
		{"small, checked", small, func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }},
		{"large", large, nil},
		{"large, checked", large, func(r io.Reader) error { _, err := io.Copy(io.Discard, r); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, dir, strings.ReplaceAll(tc.name, ", ", "-")+".csv", tc.content)
			abs, _ := filepath.Abs(p)
			reads := readsOf(abs)
			c := newLineCounter()
			r, checkErr, err := HashFile(p, HashOptions{Check: tc.check, Limit: 100, Counter: c})
			if err != nil || checkErr != nil || r.SHA256 != sha256Hex(tc.content) {
				t.Fatalf("HashFile = %+v, %v, %v", r, checkErr, err)
			}
			if got := readsOf(abs) - reads; got != 1 {
				t.Fatalf("%d reads of the file, want 1", got)
			}
			want := int64(bytes.Count(tc.content, []byte{'\n'}) - 1)
			cnt := r.CountsFor("CSV/UTF-8")
			if cnt == nil || cnt.Rows != want || cnt.Size != int64(len(tc.content)) || cnt.Columns[1] != r.SHA256 {
				t.Fatalf("counts %+v; want %d rows, %d bytes, the counter seeing every byte", r.Counts, want, len(tc.content))
			}
		})
	}
	// Without a counter: no counts, the counts are unknown.
	r, _, err := HashFile(writeFile(t, dir, "plain.csv", small), HashOptions{})
	if err != nil || r.Counts != nil || r.CountsFor("") != nil {
		t.Fatalf("no counter: %+v, %v", r, err)
	}
}

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

// TestReadHook: each whole read calls the hook with the name the file was
// read by (the tests' readsOf counts it per absolute path), and a file
// that cannot be opened calls it not; without a hook a read counts
// nothing.
func TestReadHook(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	other := writeFile(t, dir, "other.csv", []byte("Account,Amount\n4000,2\n"))
	if n := readsOf(p); n != 0 {
		t.Fatalf("before any read: %d reads", n)
	}
	if _, _, err := HashFile(p, HashOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := readsOf(p); n != 1 {
		t.Fatalf("after one hash: %d reads", n)
	}
	// By a relative path: counted under the absolute one.
	t.Chdir(dir)
	if _, _, err := HashFile("gl.csv", HashOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := readsOf(p); n != 2 {
		t.Fatalf("after a hash by a relative path: %d reads", n)
	}
	if n := readsOf("gl.csv"); n != 0 {
		t.Errorf("counted under the relative path: %d", n)
	}
	if n := readsOf(other); n != 0 {
		t.Errorf("another file: %d reads", n)
	}
	// A file that cannot be opened is not read.
	missing := filepath.Join(dir, "missing.csv")
	if _, _, err := HashFile(missing, HashOptions{}); err == nil {
		t.Fatal("hashed a missing file")
	}
	if n := readsOf(missing); n != 0 {
		t.Errorf("missing file: %d reads", n)
	}
	countRead(other)
	if n := readsOf(other); n != 1 {
		t.Errorf("countRead: %d reads", n)
	}
	h := ReadHook.Swap(nil)
	defer ReadHook.Store(h)
	countRead(other)
	if n := readsOf(other); n != 1 {
		t.Errorf("without a hook: %d reads", n)
	}
}
