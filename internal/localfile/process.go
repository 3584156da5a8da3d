package localfile

import "os"

// ProcessAlive reports whether process pid exists; where that cannot be
// told (see processAlive), it says true: an entry held by a process that
// may still run is left to it.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	return processAlive(pid)
}

// ParentProcess is the process that started this one (for a provider, the
// run of the Terraform or OpenTofu CLI it serves), with its start time in
// the system's own unit (Linux: clock ticks since boot); start is 0 where
// it cannot be read.
func ParentProcess() (pid int, start uint64) {
	pid = os.Getppid()
	start, _ = processStart(pid)
	return pid, start
}

// ProcessRunning reports whether process pid still runs: it exists and,
// where start times can be read and start is not 0, it started at start
// (a later process given the same pid is another). pid 0 or less runs
// nowhere.
func ProcessRunning(pid int, start uint64) bool {
	if !ProcessAlive(pid) {
		return false
	}
	if start == 0 {
		return true
	}
	now, ok := processStart(pid)
	return !ok || now == start
}
