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

// Run names one run of the Terraform or OpenTofu CLI: the process that
// started this provider process (the CLI's child in every operation, the
// plan's and the apply's alike), with its start time where the system
// tells it, so that a later process given the same pid is another run.
type Run struct {
	PID int `json:"pid"`
	// Start is the process's start time in the system's own unit (Linux:
	// clock ticks since boot); 0 where it cannot be read.
	Start uint64 `json:"start,omitempty"`
}

// ThisRun is the run of the CLI that started this process.
func ThisRun() Run {
	ppid := os.Getppid()
	start, _ := processStart(ppid)
	return Run{PID: ppid, Start: start}
}

// Alive reports whether the run's process still runs: it exists and, where
// start times can be read, started when the run did. A zero Run (no
// process recorded) is not alive.
func (r Run) Alive() bool {
	if r.PID <= 0 || !ProcessAlive(r.PID) {
		return false
	}
	if r.Start == 0 {
		return true
	}
	start, ok := processStart(r.PID)
	return !ok || start == r.Start
}
