package orphans

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// A process of the matched executable in dir is killed; one of the same
// executable elsewhere is left running.
func TestStop(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("orphans reads /proc")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	sleep, _ = filepath.EvalSymlinks(sleep)
	start := func(dir string) *exec.Cmd {
		c := exec.Command(sleep, "60")
		c.Dir = dir
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill() })
		return c
	}
	dir, other := t.TempDir(), t.TempDir()
	in, out := start(dir), start(other)
	time.Sleep(50 * time.Millisecond) // /proc shows the new processes' cwd and exe once they run
	Stop(dir, func(exe string) bool { return exe == sleep })
	done := make(chan error, 1)
	go func() { done <- in.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the process in dir still runs after Stop")
	}
	if err := out.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the process outside dir was stopped: %v", err)
	}
	_ = out.Process.Kill()
	_ = out.Wait()
}
