//go:build !unix

package main

import (
	"runtime"
	"strconv"
	"syscall"
)

// detachAttr: this system has no setsid, so the -background copy starts
// in this one's session, with its output in the log file all the same;
// the note says so.
func detachAttr() (*syscall.SysProcAttr, string) {
	return nil, "-background on " + runtime.GOOS + ": the emulator cannot start in a session of its own here; " +
		"it runs in this one's (and may stop with it), its output still in the log file"
}

// closeInheritedOnExec does nothing where descriptors are not inherited
// as on Unix.
func closeInheritedOnExec() {}

// stopHint is the command that stops the emulator of process pid.
func stopHint(pid int) string {
	if runtime.GOOS == "windows" {
		return "taskkill /F /PID " + strconv.Itoa(pid)
	}
	return "kill " + strconv.Itoa(pid)
}
