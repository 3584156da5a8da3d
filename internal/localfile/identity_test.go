package localfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStatPath: the key path (absolute, links resolved) and identity of a
// regular file; nothing for what is not one.
func TestStatPath(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	want, hasIdentity := systemIdentity(t, p)
	key := realPath(t, p) // p, unless the temporary directory is under a link
	abs, id, ok := StatPath(p)
	if ok != hasIdentity || (ok && (abs != key || id != want || id.Size != 22)) {
		t.Fatalf("StatPath = %q, %+v, %v; want %q, %+v, %v", abs, id, ok, key, want, hasIdentity)
	}
	t.Chdir(dir)
	if abs, id, ok := StatPath("gl.csv"); ok != hasIdentity || (ok && (abs != key || id != want)) {
		t.Fatalf("relative path: %q, %+v, %v", abs, id, ok)
	}
	for _, q := range []string{filepath.Join(dir, "missing.csv"), dir} {
		if abs, id, ok := StatPath(q); ok || abs != "" || id != (Identity{}) {
			t.Errorf("StatPath(%s) = %q, %+v, %v", q, abs, id, ok)
		}
	}
}

// TestStableIdentity: an open file's identity when it did not change
// since the metadata taken before a read; nothing once it did.
func TestStableIdentity(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	want, hasIdentity := systemIdentity(t, p)
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	before, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if abs, id, ok := stableIdentity(fh, before); ok != hasIdentity || (ok && (abs != realPath(t, p) || id != want)) {
		t.Fatalf("unchanged: %q, %+v, %v; want %+v, %v", abs, id, ok, want, hasIdentity)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("4010,2\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if abs, id, ok := stableIdentity(fh, before); ok || abs != "" || id != (Identity{}) {
		t.Fatalf("grown: %q, %+v, %v", abs, id, ok)
	}
}

// TestIdentityHook: the hook changes every identity read, and is given the
// file's key path.
func TestIdentityHook(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	want, hasIdentity := systemIdentity(t, p)
	if !hasIdentity {
		if _, _, ok := StatPath(p); ok {
			t.Fatal("StatPath gave an identity on a system without one")
		}
		return
	}
	var seen []string
	hook := func(abs string, id Identity) Identity {
		seen = append(seen, abs)
		id.MtimeNs, id.CtimeNs = 1, 2
		return id
	}
	IdentityHook.Store(&hook)
	t.Cleanup(func() { IdentityHook.Store(nil) })
	frozen := want
	frozen.MtimeNs, frozen.CtimeNs = 1, 2
	if _, id, ok := StatPath(p); !ok || id != frozen {
		t.Fatalf("StatPath with the hook = %+v, %v; want %+v", id, ok, frozen)
	}
	if r, _, err := HashFile(p, HashOptions{}); err != nil || r.ID != frozen {
		t.Fatalf("HashFile with the hook = %+v, %v; want the identity %+v", r, err, frozen)
	}
	if key := realPath(t, p); len(seen) != 2 || seen[0] != key || seen[1] != key {
		t.Fatalf("the hook saw %q", seen)
	}
	IdentityHook.Store(nil)
	if _, id, ok := StatPath(p); !ok || id != want {
		t.Fatalf("StatPath without the hook = %+v, %v; want %+v", id, ok, want)
	}
}
