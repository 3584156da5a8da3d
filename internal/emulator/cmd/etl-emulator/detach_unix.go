//go:build unix

package main

import (
	"os"
	"strconv"
	"syscall"
)

// detachAttr returns the attributes that start the -background copy in a
// new session (setsid): no controlling terminal, so no SIGHUP when the
// terminal closes, and out of the caller's process group, so no signal
// sent to the group (Ctrl-C, a CI runner's clean-up of a step) reaches it.
func detachAttr() (*syscall.SysProcAttr, string) {
	return &syscall.SysProcAttr{Setsid: true}, ""
}

// closeInheritedOnExec marks every descriptor above stderr close-on-exec,
// so that the -background copy inherits none of those this process got
// from its caller (a pipe a CI runner or make passed down would otherwise
// stay open as long as the emulator runs). Descriptors Go opened are
// close-on-exec already.
func closeInheritedOnExec() {
	for fd := 3; fd < 1024; fd++ {
		syscall.CloseOnExec(fd)
	}
	// Higher descriptors, where the system lists them.
	if entries, err := os.ReadDir("/dev/fd"); err == nil {
		for _, e := range entries {
			if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= 1024 {
				syscall.CloseOnExec(fd)
			}
		}
	}
}

// stopHint is the command that stops the emulator of process pid.
func stopHint(pid int) string { return "kill " + strconv.Itoa(pid) }
