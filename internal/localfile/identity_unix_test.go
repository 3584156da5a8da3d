//go:build linux || openbsd || darwin || freebsd || netbsd || dragonfly

package localfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestIdentityOf: the identity is the file's size, times, inode and device
// as stat(2) gives them, and every kind of change moves it.
func TestIdentityOf(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	ident := func() Identity {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		id, ok := identityOf(fi)
		if !ok {
			t.Fatal("no identity on this system")
		}
		return id
	}
	id := ident()
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	statMtime, statCtime := statTimes(&st)
	if id.Size != 22 || id.Inode != st.Ino || id.Device != uint64(st.Dev) || id.CtimeNs != statCtime || id.MtimeNs != statMtime { //nolint:unconvert // int32 on some systems
		t.Fatalf("identity %+v, stat %+v", id, st)
	}
	// A chmod moves the change time only.
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	after := ident()
	if after.CtimeNs == id.CtimeNs || after.MtimeNs != id.MtimeNs || after.Inode != id.Inode {
		t.Errorf("chmod: %+v -> %+v", id, after)
	}
	// A same-size edit with the modification time set back: the change time moves.
	mtime := time.Unix(0, id.MtimeNs)
	if err := os.WriteFile(p, []byte("Account,Amount\n4000,2\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	edited := ident()
	if edited.MtimeNs != id.MtimeNs || edited.Size != id.Size || edited.CtimeNs == after.CtimeNs {
		t.Errorf("same-size edit, mtime kept: %+v -> %+v", after, edited)
	}
	// Replaced by another file renamed over it: another inode.
	tmp := writeFile(t, dir, "new.csv", []byte("Account,Amount\n4000,3\n"))
	if err := os.Rename(tmp, filepath.Join(dir, "gl.csv")); err != nil {
		t.Fatal(err)
	}
	if replaced := ident(); replaced.Inode == edited.Inode {
		t.Errorf("replaced: the inode stayed %d", replaced.Inode)
	}
}
