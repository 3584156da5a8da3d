//go:build linux || openbsd || darwin || freebsd || netbsd || dragonfly

package localfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// One file is one file: whatever name a file is reached by (a symbolic
// link to it, a directory link followed by "..", "." and ".." components,
// a hard link), its identity is that of the file the system opens by that
// name, and the path its records are kept under is the name the system
// resolves it to. Bind mounts: identity_linux_test.go.

// statIdentity is StatPath of p, failing the test when it gives none.
func statIdentity(t *testing.T, p string) (string, Identity) {
	t.Helper()
	abs, id, ok := StatPath(p)
	if !ok {
		t.Fatalf("StatPath(%s): no identity", p)
	}
	return abs, id
}

// expectSameFile asserts that StatPath, HashFile and a send's record of
// name all give the identity and key path of the file at want.
func expectSameFile(t *testing.T, name, want string) {
	t.Helper()
	wantID, _ := systemIdentity(t, want)
	wantPath := realPath(t, want)
	if abs, id := statIdentity(t, name); abs != wantPath || id != wantID {
		t.Errorf("StatPath(%s) = %q, %+v; want %q, %+v (the file opened)", name, abs, id, wantPath, wantID)
	}
	r, _, err := HashFile(name, HashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Path != wantPath || r.ID != wantID {
		t.Errorf("HashFile(%s) record %q, %+v; want %q, %+v", name, r.Path, r.ID, wantPath, wantID)
	}
	o, err := Open(name, "")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	rc, _ := o.Reader()
	if _, err := readAllClose(rc); err != nil {
		t.Fatal(err)
	}
	if sent, ok := o.SentRecord(""); !ok || sent.Path != wantPath || sent.ID != wantID || sent.SHA256 != r.SHA256 {
		t.Errorf("SentRecord of %s = %+v, %v; want %q, %+v", name, sent, ok, wantPath, wantID)
	}
}

// TestStatPathSymlinkToFile: a link to a file is that file: its identity
// and key path, not the link's; a link to nothing or to a directory has no
// identity.
func TestStatPathSymlinkToFile(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("gl.csv", link); err != nil {
		t.Fatal(err)
	}
	expectSameFile(t, link, target)
	t.Chdir(dir)
	expectSameFile(t, "link.csv", target)
	for _, tc := range []struct{ name, to string }{{"dangling.csv", "missing.csv"}, {"dir.csv", "."}} {
		if err := os.Symlink(tc.to, filepath.Join(dir, tc.name)); err != nil {
			t.Fatal(err)
		}
		if abs, id, ok := StatPath(tc.name); ok || abs != "" || id != (Identity{}) {
			t.Errorf("StatPath(%s -> %s) = %q, %+v, %v", tc.name, tc.to, abs, id, ok)
		}
	}
}

// dotDotFixture is the directory link followed by "..": work -> real/sub,
// and real/data.csv and data.csv with the same bytes. work/../data.csv is
// real/data.csv to the system, and ./data.csv as text (filepath.Clean).
func dotDotFixture(t *testing.T) (dir, realFile, decoy string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "sub"), filepath.Join(dir, "work")); err != nil {
		t.Fatal(err)
	}
	content := []byte("Account,Amount\n4000,1\n")
	realFile = writeFile(t, filepath.Join(dir, "real"), "data.csv", content)
	decoy = writeFile(t, dir, "data.csv", content)
	return dir, realFile, decoy
}

// TestStatPathSymlinkDotDot: work/../data.csv, with work -> real/sub, is
// real/data.csv (the file the system opens), not ./data.csv.
func TestStatPathSymlinkDotDot(t *testing.T) {
	dir, realFile, decoy := dotDotFixture(t)
	name := dir + "/work/../data.csv"
	// What the system opens by that name.
	opened, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(realFile); !os.SameFile(opened, fi) {
		t.Fatal("the system does not open real/data.csv by work/../data.csv: the fixture is wrong")
	}
	decoyID, _ := systemIdentity(t, decoy)
	if _, id := statIdentity(t, name); id == decoyID {
		t.Errorf("StatPath(%s) gave the identity of %s, which is not the file opened", name, decoy)
	}
	wantPath, _ := statIdentity(t, realFile)
	if abs, _ := statIdentity(t, name); abs != wantPath {
		t.Errorf("StatPath(%s) key path %q, StatPath(real/data.csv) %q: one file, two keys", name, abs, wantPath)
	}
	expectSameFile(t, name, realFile)
	// Relative, from the directory and from inside the link.
	t.Chdir(dir)
	expectSameFile(t, "work/../data.csv", realFile)
	expectSameFile(t, "./work/./../data.csv", realFile)
	t.Chdir(filepath.Join(dir, "work"))
	expectSameFile(t, "../data.csv", realFile)
	expectSameFile(t, "../../data.csv", decoy)
}

// TestDiskCacheSymlinkDotDot: the hole end to end, as the provider plans:
// a trusted record of ./data.csv in the disk cache is not the record of
// work/../data.csv (real/data.csv), which an edit the record cannot show
// changed.
func TestDiskCacheSymlinkDotDot(t *testing.T) {
	dir, realFile, decoy := dotDotFixture(t)
	d := &DiskCache{dir: filepath.Join(t.TempDir(), "hashes"), max: 16}
	later := time.Now().Add(time.Hour).UnixNano() // past the racy window of both files
	r, _, err := HashFile(decoy, HashOptions{})
	if err != nil || r.Path == "" {
		t.Fatal(r, err)
	}
	r.HashedAt = later
	d.Put(r)
	// real/data.csv is edited, same size: its bytes are no longer the record's.
	if err := os.WriteFile(realFile, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	name := dir + "/work/../data.csv"
	abs, id := statIdentity(t, name)
	if got := d.Get(abs, id); got.Trusted(abs, id, "") {
		t.Fatalf("the record of %s is trusted for %s (real/data.csv, edited): %+v", decoy, name, got)
	}
	// The record HashFile takes of that name is found again by it.
	r, _, err = HashFile(name, HashOptions{})
	if err != nil || r.SHA256 != sha256Hex([]byte("Account,Amount\n4000,2\n")) {
		t.Fatal(r, err)
	}
	r.HashedAt = later
	d.Put(r)
	if got := d.Get(abs, id); !got.Trusted(abs, id, "") || got.SHA256 != r.SHA256 {
		t.Fatalf("the record of %s is not found by its own name: %+v", name, got)
	}
}

// TestStatPathHardLink: two names of one inode are one identity (each
// under its own key path), and an edit through one name changes the
// identity seen through the other.
func TestStatPathHardLink(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.csv", []byte("Account,Amount\n4000,1\n"))
	b := filepath.Join(dir, "b.csv")
	if err := os.Link(a, b); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	pa, ida := statIdentity(t, a)
	pb, idb := statIdentity(t, b)
	if ida != idb || pa != realPath(t, a) || pb != realPath(t, b) {
		t.Fatalf("a: %q %+v; b: %q %+v; want one identity, each its own path", pa, ida, pb, idb)
	}
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // a change time the clock can tell apart
	if err := os.WriteFile(a, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, ida2 := statIdentity(t, a)
	_, idb2 := statIdentity(t, b)
	if idb2 == idb || idb2 != ida2 {
		t.Fatalf("edit through a: b's identity %+v -> %+v, a's now %+v; want b's changed, equal to a's", idb, idb2, ida2)
	}
	if r, _, err := HashFile(b, HashOptions{}); err != nil || r.ID != ida2 || r.SHA256 != sha256Hex([]byte("Account,Amount\n4000,2\n")) {
		t.Fatalf("HashFile(b) after the edit through a: %+v, %v", r, err)
	}
}

// TestStatPathDotComponents: a relative name with "." and ".." components
// (through real directories) is the file it names, under the same key path
// as its plain absolute name.
func TestStatPathDotComponents(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "x", "y"), 0o700); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	t.Chdir(filepath.Join(dir, "x"))
	for _, name := range []string{"../gl.csv", "./../gl.csv", "y/../../gl.csv", "./y/./../.././gl.csv", "y/../.." + "/x/../gl.csv"} {
		expectSameFile(t, name, p)
	}
	// Through a name that is not a directory: no identity, as the system
	// opens nothing.
	if _, _, ok := StatPath("../gl.csv/../gl.csv"); ok {
		t.Error("StatPath through a file as if it were a directory gave an identity")
	}
}

// readAllClose reads rc to its end and closes it.
func readAllClose(rc io.ReadCloser) ([]byte, error) {
	defer rc.Close()
	return io.ReadAll(rc)
}

// TestCanonicalPath: the key path is the name the system resolves, link
// loops have none.
func TestCanonicalPath(t *testing.T) {
	dir, realFile, _ := dotDotFixture(t)
	got, err := canonicalPath(dir + "/work/../data.csv")
	if err != nil || got != realPath(t, realFile) {
		t.Fatalf("canonicalPath = %q, %v; want %q", got, err, realPath(t, realFile))
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	if got, err := canonicalPath(loop); err == nil {
		t.Errorf("canonicalPath of a link loop = %q", got)
	}
	if _, _, ok := StatPath(loop); ok {
		t.Error("StatPath of a link loop gave an identity")
	}
}
