package explore

import (
	"os"
	"path/filepath"
	"testing"
)

// A path block's data file as the edit "file" leaves it: gone, unreadable
// (a loop of symbolic links; or mode 000, which stops all but root), and
// back with its bytes.
func TestWriteDataFile(t *testing.T) {
	dir := t.TempDir()
	b := block{Name: "r0", Kind: kindPath, Dir: "a"}
	p, want := filepath.Join(dir, dataPath(b)), fileBytes(0, 0, 0)
	write := func(state int, loop bool) {
		t.Helper()
		b.File = state
		if err := writeDataFile(dir, b, want, loop); err != nil {
			t.Fatal(err)
		}
	}
	write(fileGone, true)
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Errorf("gone: %v", err)
	}
	write(fileUnreadable, true)
	if f, err := os.Open(p); err == nil {
		_ = f.Close()
		t.Error("a loop of symbolic links opens")
	}
	write(fileUnreadable, false)
	if st, err := os.Lstat(p); err != nil || st.Mode().Perm() != 0 || !st.Mode().IsRegular() {
		t.Errorf("mode 000: %v %v", st, err)
	}
	if f, err := os.Open(p); err == nil && os.Geteuid() != 0 {
		_ = f.Close()
		t.Error("a file of mode 000 opens")
	}
	write(fileUnreadable, true)
	write(fileHere, true)
	if got, err := os.ReadFile(p); err != nil || string(got) != string(want) {
		t.Errorf("back: %q, %v", got, err)
	}
	if _, err := os.Lstat(p + ".loop"); !os.IsNotExist(err) {
		t.Errorf("the loop is left: %v", err)
	}
}
