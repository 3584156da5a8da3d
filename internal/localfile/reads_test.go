package localfile

import (
	"path/filepath"
	"testing"
)

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
