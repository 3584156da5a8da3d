//go:build linux || openbsd || darwin || freebsd || netbsd || dragonfly

package localfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The cache trusts only what it owns: a directory (or the user cache's
// terraform-provider-etl directory above it) that is a link, another
// user's, or writable by group or others, is not used at all; a record
// file that is a link, another user's, or writable by group or others is
// ignored. Tests run as root, so "another user" is uid 65534 (chown).

// otherUID is the owner the tests give what is not ours.
const otherUID = 65534

// requireChown skips the test unless this process may give a file away.
func requireChown(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user (chown) takes root")
	}
}

// chown gives p to uid, and back to this process's user when the test ends.
func chown(t *testing.T, p string, uid int) {
	t.Helper()
	if err := os.Lchown(p, uid, -1); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Lchown(p, os.Getuid(), -1) })
}

// filledCache is a cache directory of ours holding r, written through
// another DiskCache value (each value checks its directory once).
func filledCache(t *testing.T, r *Record) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hashes")
	d := &DiskCache{dir: dir, max: 16}
	d.Put(r)
	if got := d.Get(r.Path, r.ID); got == nil {
		t.Fatalf("our own 0700 cache directory: no record after Put")
	}
	return dir
}

// expectIgnored asserts a new DiskCache of dir neither reads r nor writes
// another record, and says why in Trusted.
func expectIgnored(t *testing.T, dir string, r *Record, why string) {
	t.Helper()
	d := &DiskCache{dir: dir, max: 16}
	if got := d.Get(r.Path, r.ID); got != nil {
		t.Errorf("Get = %+v from a directory that is not ours alone", got)
	}
	before := entries(t, dir)
	d.Put(testRecord("/data", 99))
	if after := entries(t, dir); after != before {
		t.Errorf("Put wrote to a directory that is not ours alone: %d entries, %d before", after, before)
	}
	if ok, reason := d.Trusted(); ok || !strings.Contains(reason, why) {
		t.Errorf("Trusted = %v, %q; want false, saying %q", ok, reason, why)
	}
}

// entries counts the names in dir (followed if it is a link).
func entries(t *testing.T, dir string) int {
	t.Helper()
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(names)
}

func TestDiskCacheDirectoryOpenToOthers(t *testing.T) {
	r := testRecord("/data", 1)
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702, 0o720} {
		dir := filledCache(t, r)
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		expectIgnored(t, dir, r, "writable by group or others")
	}
	// Readable by others, writable by us alone: ours.
	dir := filledCache(t, r)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := (&DiskCache{dir: dir, max: 16}).Get(r.Path, r.ID); got == nil {
		t.Error("a 0755 directory of ours was not used")
	}
}

func TestDiskCacheDirectoryOfAnotherUser(t *testing.T) {
	requireChown(t)
	r := testRecord("/data", 1)
	dir := filledCache(t, r)
	chown(t, dir, otherUID)
	expectIgnored(t, dir, r, "owned by")
}

func TestDiskCacheSymlinkedDirectory(t *testing.T) {
	r := testRecord("/data", 1)
	dir := filledCache(t, r)
	link := filepath.Join(t.TempDir(), "hashes")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	expectIgnored(t, link, r, "not a directory")
}

// TestDiskCacheRecordNotOurs: in our own directory, a record file that is
// another user's, writable by group or others, or a link (to a record
// that would be trusted) is ignored; the others still serve.
func TestDiskCacheRecordNotOurs(t *testing.T) {
	good, theirs, open, linked := testRecord("/data", 1), testRecord("/data", 2), testRecord("/data", 3), testRecord("/data", 4)
	dir := filepath.Join(t.TempDir(), "hashes")
	d := &DiskCache{dir: dir, max: 16}
	for _, r := range []*Record{good, theirs, open, linked} {
		d.Put(r)
	}
	if err := os.Chmod(filepath.Join(dir, d.name(open.Path, open.ID)), 0o622); err != nil {
		t.Fatal(err)
	}
	// linked's file is a link to a copy of itself elsewhere.
	src := filepath.Join(dir, d.name(linked.Path, linked.ID))
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := writeFile(t, t.TempDir(), "record.json", b)
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, src); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		chown(t, filepath.Join(dir, d.name(theirs.Path, theirs.ID)), otherUID)
	}
	d = &DiskCache{dir: dir, max: 16}
	if got := d.Get(good.Path, good.ID); got == nil || *got != *good {
		t.Errorf("our own record: %+v", got)
	}
	if got := d.Get(open.Path, open.ID); got != nil {
		t.Errorf("a record writable by others was read: %+v", got)
	}
	if got := d.Get(linked.Path, linked.ID); got != nil {
		t.Errorf("a record that is a link was read: %+v", got)
	}
	if os.Geteuid() == 0 {
		if got := d.Get(theirs.Path, theirs.ID); got != nil {
			t.Errorf("a record of another user was read: %+v", got)
		}
	}
}

// TestUserDiskCacheParent: the user cache's terraform-provider-etl
// directory is checked as its file-hashes directory is.
func TestUserDiskCacheParent(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	r := testRecord("/data", 1)
	d := UserDiskCache()
	d.Put(r)
	if d.Get(r.Path, r.ID) == nil {
		t.Fatal("the user cache does not work")
	}
	parent := filepath.Dir(d.dir)
	if err := os.Chmod(parent, 0o777); err != nil {
		t.Fatal(err)
	}
	if got := UserDiskCache().Get(r.Path, r.ID); got != nil {
		t.Errorf("Get = %+v under a terraform-provider-etl directory writable by others", got)
	}
	if err := os.Chmod(parent, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		chown(t, parent, otherUID)
		if got := UserDiskCache().Get(r.Path, r.ID); got != nil {
			t.Errorf("Get = %+v under a terraform-provider-etl directory of another user", got)
		}
	}
}

// TestDiskCacheTrusted: a missing directory is made, ours (0700), and
// trusted; the answer is taken once per DiskCache value; nil is never
// trusted.
func TestDiskCacheTrusted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "hashes")
	d := &DiskCache{dir: dir, max: 16}
	if ok, why := d.Trusted(); !ok || why != "" {
		t.Fatalf("a new directory: Trusted = %v, %q", ok, why)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the directory made: %v, %v; want mode 0700", fi, err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if ok, _ := d.Trusted(); !ok {
		t.Error("the same value checked its directory again")
	}
	if ok, why := (&DiskCache{dir: dir, max: 16}).Trusted(); ok || !strings.Contains(why, dir+" is writable by group or others (mode 0777)") {
		t.Errorf("a new value: Trusted = %v, %q", ok, why)
	}
	var none *DiskCache
	if ok, why := none.Trusted(); ok || why == "" {
		t.Errorf("nil: Trusted = %v, %q", ok, why)
	}
}
