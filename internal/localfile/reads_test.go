package localfile

import (
	"path/filepath"
	"testing"
)

// TestReads: whole reads are counted per absolute path, whatever path the
// file was read by, and only for that file.
func TestReads(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	other := writeFile(t, dir, "other.csv", []byte("Account,Amount\n4000,2\n"))
	if n := Reads(p); n != 0 {
		t.Fatalf("before any read: %d reads", n)
	}
	if _, _, err := HashFile(p, HashOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := Reads(p); n != 1 {
		t.Fatalf("after one hash: %d reads", n)
	}
	// By a relative path: counted under the absolute one.
	t.Chdir(dir)
	if _, _, err := HashFile("gl.csv", HashOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := Reads(p); n != 2 {
		t.Fatalf("after a hash by a relative path: %d reads", n)
	}
	if n := Reads("gl.csv"); n != 0 {
		t.Errorf("counted under the relative path: %d", n)
	}
	if n := Reads(other); n != 0 {
		t.Errorf("another file: %d reads", n)
	}
	// A file that cannot be opened is not read.
	missing := filepath.Join(dir, "missing.csv")
	if _, _, err := HashFile(missing, HashOptions{}); err == nil {
		t.Fatal("hashed a missing file")
	}
	if n := Reads(missing); n != 0 {
		t.Errorf("missing file: %d reads", n)
	}
	countRead(other)
	if n := Reads(other); n != 1 {
		t.Errorf("countRead: %d reads", n)
	}
}
