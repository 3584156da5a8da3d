package localfile

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestOpenRegular: a regular file opens; what is not one, or cannot be
// read, is a *PathError of its Kind, from OpenRegular and from HashFile.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	f, err := OpenRegular(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != "Account,Amount\n4000,1\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	missing := filepath.Join(dir, "missing.csv")
	bad := "gl\x00.csv"
	for _, tc := range []struct {
		name  string
		path  string
		kind  Kind
		wrap  error // what the error wraps, nil for none
		text  string
		noErr bool // the error wraps no system error
	}{
		{"missing", missing, NotFound, fs.ErrNotExist, `the file "` + missing + `" does not exist`, false},
		{"directory", dir, IsDir, nil, `"` + dir + `" is a directory`, true},
		{"a name the system refuses", bad, Unreadable, nil, `stat "gl\x00.csv": `, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := OpenRegular(tc.path)
			var pe *PathError
			if f != nil || !errors.As(err, &pe) {
				t.Fatalf("OpenRegular = %v, %v; want a *PathError", f, err)
			}
			if pe.Kind != tc.kind || pe.Op != OpStat || pe.Path != tc.path || (pe.Err == nil) != tc.noErr {
				t.Fatalf("%+v; want kind %d on stat of %q", pe, tc.kind, tc.path)
			}
			if tc.wrap != nil && !errors.Is(err, tc.wrap) {
				t.Errorf("%v does not wrap %v", err, tc.wrap)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.text) || (tc.kind != Unreadable && msg != tc.text) {
				t.Errorf("Error() = %q, want %q", msg, tc.text)
			}
			if tc.kind == Unreadable && !strings.HasSuffix(err.Error(), pe.Err.Error()) {
				t.Errorf("Error() = %q does not say the system's error %q", err, pe.Err)
			}
			// HashFile fails the same way.
			var hpe *PathError
			if r, _, err := HashFile(tc.path, HashOptions{}); r != nil || !errors.As(err, &hpe) || hpe.Kind != tc.kind {
				t.Errorf("HashFile = %+v, %v", r, err)
			}
		})
	}
}

// TestOpenRegularUnreadable: a regular file that cannot be opened, or read.
func TestOpenRegularUnreadable(t *testing.T) {
	t.Run("no permission", func(t *testing.T) {
		if runtime.GOOS == "windows" || os.Geteuid() == 0 {
			t.Skip("a mode of 000 does not keep this user (root, or on Windows) from opening a file")
		}
		p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n"))
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		f, err := OpenRegular(p)
		var pe *PathError
		if f != nil || !errors.As(err, &pe) || pe.Kind != Unreadable || pe.Op != OpOpen || !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("OpenRegular = %v, %v; want an Unreadable open", f, err)
		}
		if !strings.HasPrefix(err.Error(), `open "`+p+`": `) {
			t.Errorf("Error() = %q", err)
		}
	})
	t.Run("read fails", func(t *testing.T) {
		// /proc/self/mem is a regular file whose read at offset 0 fails
		// (nothing is mapped there).
		const mem = "/proc/self/mem"
		if fi, err := os.Stat(mem); runtime.GOOS != "linux" || err != nil || !fi.Mode().IsRegular() {
			t.Skip("no /proc/self/mem (a regular file whose read fails) on this system")
		}
		r, _, err := HashFile(mem, HashOptions{})
		var pe *PathError
		if r != nil || !errors.As(err, &pe) || pe.Kind != Unreadable || pe.Op != OpRead || pe.Err == nil {
			t.Fatalf("HashFile = %+v, %v; want an Unreadable read", r, err)
		}
		if !strings.HasPrefix(err.Error(), `read "/proc/self/mem": `) {
			t.Errorf("Error() = %q", err)
		}
		// Open, which hashes a file without an expected hash, too.
		if o, err := Open(mem, ""); o != nil || !errors.As(err, &pe) || pe.Op != OpRead {
			t.Fatalf("Open = %v, %v; want an Unreadable read", o, err)
		}
	})
}

func TestPathErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *PathError
		want string
	}{
		{&PathError{Op: OpStat, Kind: NotFound, Path: "gl.csv", Err: fs.ErrNotExist}, `the file "gl.csv" does not exist`},
		{&PathError{Op: OpStat, Kind: IsDir, Path: "data"}, `"data" is a directory`},
		{&PathError{Op: OpStat, Kind: NotRegular, Path: "pipe", Mode: fs.ModeNamedPipe | 0o600}, `"pipe" is not a regular file (p---------)`},
		{&PathError{Op: OpStat, Kind: NotRegular, Path: "null", Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, `"null" is not a regular file (Dc---------)`},
		{&PathError{Op: OpOpen, Kind: Unreadable, Path: "gl.csv", Err: fs.ErrPermission}, `open "gl.csv": permission denied`},
		{&PathError{Op: OpRead, Kind: Unreadable, Path: "gl.csv", Err: io.ErrUnexpectedEOF}, `read "gl.csv": unexpected EOF`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		if !errors.Is(tc.err, tc.err.Err) && tc.err.Err != nil {
			t.Errorf("%v does not unwrap to %v", tc.err, tc.err.Err)
		}
	}
}

// namedReaderAt is a file's bytes in memory, with the file's name.
type namedReaderAt struct {
	io.ReaderAt
	name string
}

func (n namedReaderAt) Name() string { return n.name }

// newTestSend is the reader of one attempt, as Opened.Reader builds it, of
// size bytes of f expected to hash to want.
func newTestSend(f io.ReaderAt, size int64, want string) (*aheadReader, *atomic.Bool) {
	var verified atomic.Bool
	src := &sendSource{f: f, size: size, want: want, h: sha256.New(), verified: &verified}
	return newAheadReader(src, int(min(size, sendBlock)), sendBlocks), &verified
}

func testSendReader(content []byte, want string) (*aheadReader, *atomic.Bool) {
	return newTestSend(namedReaderAt{bytes.NewReader(content), "gl.csv"}, int64(len(content)), want)
}

// TestSendReaderBytes: every size around the block boundaries is handed
// over exactly, through reads of any size, and counted.
func TestSendReaderBytes(t *testing.T) {
	pattern := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz,\n"), 1000)
	for _, size := range []int{0, 1, 100, sendBlock - 1, sendBlock, sendBlock + 1, (sendBlocks+1)*sendBlock + 3} {
		content := bytes.Repeat(pattern, size/len(pattern)+1)[:size]
		for _, readSize := range []int{1 << 15, 3 << 20} {
			r, verified := testSendReader(content, sha256Hex(content))
			var sent atomic.Int64
			got, err := io.ReadAll(readerOf(Counted(r, &sent), readSize))
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

// TestSendReaderWithholdsLastBlock: on a mismatch, everything but the last
// block is handed over, then a *ChangedError that stays.
func TestSendReaderWithholdsLastBlock(t *testing.T) {
	other := sha256Hex([]byte("other"))
	for _, size := range []int{0, 10, sendBlock, 5*sendBlock + 10} {
		content := bytes.Repeat([]byte("x"), size)
		r, verified := testSendReader(content, other)
		got, err := io.ReadAll(r)
		var changed *ChangedError
		if !errors.As(err, &changed) {
			t.Fatalf("size %d: error %v, want a *ChangedError", size, err)
		}
		if changed.Name != "gl.csv" || changed.Got != sha256Hex(content) || changed.Want != other {
			t.Fatalf("size %d: %+v", size, changed)
		}
		if !strings.Contains(err.Error(), "changed after plan or while it was being sent") || !strings.Contains(err.Error(), other) {
			t.Fatalf("size %d: %q", size, err)
		}
		if size > 0 && (len(got) >= size || len(got) < size-sendBlock) {
			t.Fatalf("size %d: handed over %d bytes; want all but the last block", size, len(got))
		}
		if !bytes.Equal(got, content[:len(got)]) {
			t.Fatalf("size %d: the bytes handed over are not the file's", size)
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
	// The file ends early.
	r, verified := newTestSend(namedReaderAt{bytes.NewReader(content[:2*sendBlock+5]), "gl.csv"}, int64(len(content)), sha256Hex(content))
	got, err := io.ReadAll(r)
	r.Close()
	var changed *ChangedError
	if !errors.As(err, &changed) || changed.Read != 2*sendBlock+5 || changed.Size != int64(len(content)) || changed.Got != "" {
		t.Fatalf("shrunk: %#v", err)
	}
	if !strings.Contains(err.Error(), "the file gl.csv shrank to 2097157 bytes") || !strings.Contains(err.Error(), "(it had 4194300)") {
		t.Fatalf("shrunk: %q", err)
	}
	if len(got) != 2*sendBlock || verified.Load() {
		t.Fatalf("shrunk: %d bytes handed over, verified %v", len(got), verified.Load())
	}
	// A read error is the reader's error.
	boom := errors.New("input/output error")
	r, verified = newTestSend(failingReaderAt{bytes.NewReader(content), 2 * sendBlock, boom}, int64(len(content)), sha256Hex(content))
	got, err = io.ReadAll(r)
	r.Close()
	if !errors.Is(err, boom) || len(got) != 2*sendBlock || verified.Load() {
		t.Fatalf("read error: %d bytes, %v, verified %v", len(got), err, verified.Load())
	}
}

// TestSendReaderClose: Close stops the read-ahead at once, also while
// another goroutine reads, and nothing leaks.
func TestSendReaderClose(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 2*sendBlocks*sendBlock)
	before := goroutines()
	for range 10 {
		r, _ := testSendReader(content, sha256Hex(content))
		done := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, r)
			done <- err
		}()
		time.Sleep(time.Millisecond)
		r.Close()
		if err := <-done; err != nil && !errors.Is(err, errClosed) {
			t.Fatalf("the reader saw %v", err)
		}
		if _, err := r.Read(make([]byte, 1)); err == nil {
			t.Fatal("read after Close succeeded")
		}
	}
	checkGoroutines(t, before)
}

// TestSendReaderMemory: the buffers are sendBlocks blocks at most, and no
// larger than a small file.
func TestSendReaderMemory(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 10)
	r, _ := testSendReader(content, sha256Hex(content))
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
	o, err := Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	rc, _ := o.Reader()
	rc.Close()
	if n := readsOf(p); n != 0 {
		t.Fatalf("opened and closed: %d reads", n)
	}
	if r, ok := rc.(*countedReader).r.(*aheadReader); !ok || len(r.free) != 0 || o.Sent() != 0 {
		t.Fatalf("opened and closed: buffers or bytes handed over")
	}
	rc, _ = o.Reader()
	if _, err := io.Copy(io.Discard, rc); err != nil || readsOf(p) != 1 {
		t.Fatalf("read: %v, %d reads", err, readsOf(p))
	}
}

// TestOpenedWithholdsLastBytes: on a mismatch the reader never hands over
// the file's last bytes, so no complete body can be sent.
func TestOpenedWithholdsLastBytes(t *testing.T) {
	content := repeatCSV("Account,Amount", "4000,1", 500000) // 3.3 MiB: four blocks
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	for _, tc := range []struct {
		name string
		want string
		ok   bool
	}{
		{"match", sha256Hex(content), true},
		{"mismatch", sha256Hex([]byte("other")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := Open(p, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			rc, _ := o.Reader()
			got, err := io.ReadAll(rc)
			if tc.ok {
				if err != nil || !bytes.Equal(got, content) || !o.Verified() {
					t.Fatalf("read %d bytes, %v, verified %v", len(got), err, o.Verified())
				}
				return
			}
			var changed *ChangedError
			if !errors.As(err, &changed) || changed.Name != p {
				t.Fatalf("error %v, want a *ChangedError naming %s", err, p)
			}
			if len(got) >= len(content) || int64(len(got)) != o.Sent() {
				t.Fatalf("handed over %d of %d bytes (Sent %d): the last ones must be withheld", len(got), len(content), o.Sent())
			}
			if _, err2 := rc.Read(make([]byte, 10)); !errors.As(err2, &changed) {
				t.Fatalf("the error is not sticky: %v", err2)
			}
			if o.Verified() {
				t.Fatal("verified after a mismatch")
			}
		})
	}
	// A file that shrinks after it was opened fails too.
	o, err := Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := os.Truncate(p, int64(len(content)/2)); err != nil {
		t.Fatal(err)
	}
	rc, _ := o.Reader()
	got, err := io.ReadAll(rc)
	var changed *ChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "shrank to") || changed.Read != int64(len(content)/2) || changed.Size != int64(len(content)) {
		t.Fatalf("shrunk file: %v", err)
	}
	if len(got) >= len(content)/2 || o.Verified() {
		t.Fatalf("shrunk file: %d bytes handed over, verified %v", len(got), o.Verified())
	}
}

func TestOpenedDetectsChange(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	o, err := Open(p, "")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	read := func(o *Opened) ([]byte, error) {
		rc, err := o.Reader()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		return io.ReadAll(rc)
	}
	// Every attempt reads the same bytes.
	for range 2 {
		if b, err := read(o); err != nil || string(b) != "Account,Amount\n4000,1\n" {
			t.Fatalf("read %q, %v", b, err)
		}
	}
	if o.SHA256() != sha256Hex([]byte("Account,Amount\n4000,1\n")) || o.Size() != 22 || o.Name() != p {
		t.Fatalf("sum %s size %d name %s", o.SHA256(), o.Size(), o.Name())
	}
	// The file is rewritten in place: the upload fails rather than send other bytes.
	if err := os.WriteFile(p, []byte("Account,Amount\n9999,9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := read(o)
	var changed *ChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "while it was being sent") || len(b) != 0 {
		t.Fatalf("changed file: %d bytes, %v", len(b), err)
	}
	if changed.Got != sha256Hex([]byte("Account,Amount\n9999,9\n")) || changed.Want != o.SHA256() {
		t.Fatalf("changed file: %+v", changed)
	}
	// It stops the upload for good (etl's client neither completes nor
	// retries a request whose reader fails with it).
	var aborts interface{ AbortsUpload() bool }
	if !errors.As(err, &aborts) || !aborts.AbortsUpload() {
		t.Fatalf("changed file: %v does not abort the upload", err)
	}

	// A large file changed at its start after Open: its first blocks go,
	// the block with its end does not.
	content := repeatCSV("Account,Amount", "4000,1", 500000)
	p = writeFile(t, t.TempDir(), "big.csv", content)
	o, err = Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("9"), 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err = read(o)
	if !errors.As(err, &changed) || changed.Got == "" {
		t.Fatalf("large file changed: %v", err)
	}
	if len(b) != len(content)/sendBlock*sendBlock || int64(len(b)) >= o.Size() || b[20] != '9' {
		t.Fatalf("large file changed: %d of %d bytes handed over", len(b), len(content))
	}
}

// TestOpenedVerified: Verified and SentRecord only once an attempt has
// handed over every byte and they matched; SentRecord only while the file
// keeps the identity it had when it was opened.
func TestOpenedVerified(t *testing.T) {
	// Longer than the read-ahead (sendBlocks blocks): Verified is set when
	// the read-ahead has read and matched the last block, so the partial
	// read below must not let it get there.
	content := repeatCSV("Account,Amount", "4000,1", (sendBlocks+2)*sendBlock/7)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	_, id, hasIdentity := StatPath(p)
	opening := time.Now()
	o, err := Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	opened := time.Now()
	if rec, ok := o.SentRecord("CSV/UTF-8"); o.Verified() || ok || rec != nil {
		t.Fatalf("before any read: verified %v, record %+v", o.Verified(), rec)
	}
	// Part of the file.
	rc, _ := o.Reader()
	if _, err := io.ReadFull(rc, make([]byte, sendBlock)); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if _, ok := o.SentRecord(""); o.Verified() || ok {
		t.Fatal("verified after a partial read")
	}
	// All of it.
	rc, _ = o.Reader()
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if !o.Verified() {
		t.Fatal("not verified after a full, matching read")
	}
	rec, ok := o.SentRecord("CSV/UTF-8")
	if !hasIdentity {
		if ok {
			t.Fatalf("a record on a system without file identities: %+v", rec)
		}
		return
	}
	if !ok || rec.Path != realPath(t, p) || rec.ID != id || rec.SHA256 != sha256Hex(content) || rec.Checked != "CSV/UTF-8" ||
		rec.HashedAt < opening.UnixNano() || rec.HashedAt > opened.UnixNano() {
		t.Fatalf("SentRecord = %+v, %v; want the file %s, identity %+v, opened between %d and %d", rec, ok, p, id, opening.UnixNano(), opened.UnixNano())
	}
	// The file grows after the send: its record is no longer the file's.
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("4000,2\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if rec, ok := o.SentRecord("CSV/UTF-8"); ok || !o.Verified() {
		t.Fatalf("after the file changed: %+v, %v", rec, ok)
	}
}

// TestOpenReads: Open without a hash reads the file once to hash it, then
// each attempt reads it once; with a hash, only the attempts read it.
func TestOpenReads(t *testing.T) {
	dir := t.TempDir()
	content := repeatCSV("Account,Amount", "4000,1", 1000)
	p := writeFile(t, dir, "gl.csv", content)
	o, err := Open(p, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := readsOf(p); n != 1 {
		t.Fatalf("Open without a hash: %d reads, want 1", n)
	}
	if o.SHA256() != sha256Hex(content) || o.Size() != int64(len(content)) {
		t.Fatalf("Open without a hash: %s, %d", o.SHA256(), o.Size())
	}
	rc, _ := o.Reader()
	if got, err := io.ReadAll(rc); err != nil || !bytes.Equal(got, content) {
		t.Fatalf("send: %d bytes, %v", len(got), err)
	}
	o.Close()
	if n := readsOf(p); n != 2 {
		t.Fatalf("open and send: %d reads, want 2", n)
	}
	p = writeFile(t, dir, "hashed.csv", content)
	o, err = Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if n := readsOf(p); n != 0 {
		t.Fatalf("Open with a hash: %d reads, want 0", n)
	}
	rc, _ = o.Reader()
	if _, err := io.Copy(io.Discard, rc); err != nil || readsOf(p) != 1 {
		t.Fatalf("send: %v, %d reads, want 1", err, readsOf(p))
	}
}

// TestOpenErrors: what cannot be opened is a *PathError, and nothing is
// left open.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	var pe *PathError
	if o, err := Open(filepath.Join(dir, "missing.csv"), ""); o != nil || !errors.As(err, &pe) || pe.Kind != NotFound {
		t.Errorf("missing file: %v", err)
	}
	if o, err := Open(dir, sha256Hex(nil)); o != nil || !errors.As(err, &pe) || pe.Kind != IsDir {
		t.Errorf("directory: %v", err)
	}
}

// TestOpenedSent: Sent is the bytes the current attempt handed over.
func TestOpenedSent(t *testing.T) {
	content := repeatCSV("Account,Amount", "4000,1", 500000)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	o, err := Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	rc, _ := o.Reader()
	if _, err := io.ReadFull(rc, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, make([]byte, 234)); err != nil {
		t.Fatal(err)
	}
	if n := o.Sent(); n != 1234 {
		t.Fatalf("Sent = %d after reads of 1234 bytes", n)
	}
	rc.Close()
	rc, _ = o.Reader()
	if n := o.Sent(); n != 0 {
		t.Fatalf("Sent = %d for a new attempt", n)
	}
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Fatal(err)
	}
	if n := o.Sent(); n != int64(len(content)) {
		t.Fatalf("Sent = %d after the whole file of %d bytes", n, len(content))
	}
}

// TestOpenedClose: Close stops an attempt being read and closes the file.
func TestOpenedClose(t *testing.T) {
	before := goroutines()
	content := bytes.Repeat([]byte("x"), 2*sendBlocks*sendBlock)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	o, err := Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := o.Reader()
	if _, err := io.ReadFull(rc, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	if err == nil || len(got) >= len(content)-10 || o.Verified() {
		t.Fatalf("read after Close: %d bytes, %v", len(got), err)
	}
	rc, _ = o.Reader()
	if _, err := io.ReadAll(rc); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("an attempt after Close: %v", err)
	}
	rc.Close()
	checkGoroutines(t, before)
}

// closeSpy records whether it was closed.
type closeSpy struct {
	io.Reader
	closed bool
}

func (c *closeSpy) Close() error { c.closed = true; return errors.New("closed") }

func TestCounted(t *testing.T) {
	var n atomic.Int64
	n.Store(5)
	src := &closeSpy{Reader: strings.NewReader("Account,Amount\n4000,1\n")}
	r := Counted(src, &n)
	if got, err := io.ReadAll(readerOf(r, 4)); err != nil || string(got) != "Account,Amount\n4000,1\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if n.Load() != 5+22 {
		t.Fatalf("counted %d, want 27", n.Load())
	}
	if err := r.Close(); err == nil || !src.closed {
		t.Fatalf("Close = %v, closed %v: not passed through", err, src.closed)
	}
	// A failing read counts what it returned, and returns its error.
	boom := errors.New("boom")
	r = Counted(io.NopCloser(readFunc(func(p []byte) (int, error) { return copy(p, "abc"), boom })), &n)
	if k, err := r.Read(make([]byte, 10)); k != 3 || !errors.Is(err, boom) || n.Load() != 30 {
		t.Fatalf("failing read: %d, %v, counted %d", k, err, n.Load())
	}
}
