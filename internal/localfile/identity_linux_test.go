package localfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// bindMountEnv, set, makes TestStatPathBindMount the half that runs in a
// mount namespace of its own: the directory it names holds src, bind
// mounted on dst there.
const bindMountEnv = "LOCALFILE_TEST_BIND_MOUNT"

// TestStatPathBindMount: a file reached through a bind mount is the same
// file (the same identity: one device, one inode), though under another
// key path (a bind mount is no link: the name resolves to itself), and an
// edit through one name changes the identity seen through the other. The
// mount is made in a child process in a mount namespace of its own (the
// test binary again, unshare(CLONE_NEWNS), / made private), so it never
// shows outside; that takes root (CAP_SYS_ADMIN), else the test is skipped.
func TestStatPathBindMount(t *testing.T) {
	if dir := os.Getenv(bindMountEnv); dir != "" {
		bindMountChild(t, dir)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("a bind mount takes root (CAP_SYS_ADMIN)")
	}
	dir := t.TempDir()
	for _, d := range []string{"src", "dst"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(dir, "src"), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	cmd := exec.Command(os.Args[0], "-test.run=^TestStatPathBindMount$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), bindMountEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil && cmd.ProcessState == nil:
		t.Skipf("no mount namespace for the child: %v", err)
	case err != nil:
		t.Fatalf("in a mount namespace: %v\n%s", err, out)
	case strings.Contains(string(out), "--- SKIP"):
		t.Skipf("in a mount namespace:\n%s", out)
	case !strings.Contains(string(out), "--- PASS: TestStatPathBindMount"):
		t.Fatalf("the child did not run the test:\n%s", out)
	}
}

// bindMountChild is the half of TestStatPathBindMount in its own mount
// namespace.
func bindMountChild(t *testing.T, dir string) {
	src, dst := filepath.Join(dir, "src"), filepath.Join(dir, "dst")
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("bind mount: %v", err)
	}
	defer syscall.Unmount(dst, 0) //nolint:errcheck // the namespace ends with the process
	a, b := filepath.Join(src, "gl.csv"), filepath.Join(dst, "gl.csv")
	pa, ida := statIdentity(t, a)
	pb, idb := statIdentity(t, b)
	if ida != idb || pa != realPath(t, a) || pb != realPath(t, b) || pa == pb {
		t.Fatalf("src: %q %+v; dst: %q %+v; want one identity under two key paths", pa, ida, pb, idb)
	}
	if r, _, err := HashFile(b, HashOptions{}); err != nil || r.ID != ida || r.Path != pb {
		t.Fatalf("HashFile through the mount: %+v, %v", r, err)
	}
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("Account,Amount\n4000,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(b, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, ida2 := statIdentity(t, a); ida2 == ida {
		t.Fatalf("an edit through the mount left the identity of the source %+v", ida)
	}
}
