package localfile

import (
	"os"
	"os/exec"
	"testing"
)

// endedPID is the pid of a process that ran and ended; the test is
// skipped when the system gave it to another process at once.
func endedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if processAlive(cmd.Process.Pid) {
		t.Skip("the pid of a process that ended was reused at once")
	}
	return cmd.Process.Pid
}

func TestProcessAlive(t *testing.T) {
	if !ProcessAlive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	if ProcessAlive(endedPID(t)) {
		t.Fatal("a process that ended is alive")
	}
	if ProcessAlive(0) || ProcessAlive(-1) {
		t.Fatal("pid 0 or -1 is alive")
	}
}

// A process runs while it exists and, where start times are read, only
// if it is the process that started then.
func TestProcessRunning(t *testing.T) {
	if pid, start := ParentProcess(); !ProcessRunning(pid, start) || pid != os.Getppid() {
		t.Fatalf("ParentProcess() = %d, %d; want this process's parent, running", pid, start)
	}
	self := os.Getpid()
	start, _ := processStart(self)
	if !ProcessRunning(self, start) || !ProcessRunning(self, 0) {
		t.Fatal("this process is not running")
	}
	if start != 0 && ProcessRunning(self, start+1) {
		t.Fatal("a process of this pid started at another time is running")
	}
	if ProcessRunning(0, 0) {
		t.Fatal("pid 0 is running")
	}
	if ProcessRunning(endedPID(t), 0) {
		t.Fatal("a process that ended is running")
	}
}
