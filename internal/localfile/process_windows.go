//go:build windows

package localfile

import "syscall"

// stillActive is the exit code GetExitCodeProcess reports for a process
// that has not exited (STILL_ACTIVE).
const stillActive = 259

// processAlive opens pid and asks for its exit code: it exists while the
// process has not exited. A process that cannot be opened for want of
// rights exists; one that cannot be opened otherwise does not.
func processAlive(pid int) bool {
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid)) //nolint:gosec // a pid is positive and fits
	if err != nil {
		return err == syscall.ERROR_ACCESS_DENIED //nolint:errorlint // a syscall.Errno, compared as the system gives it
	}
	defer syscall.CloseHandle(h) //nolint:errcheck // nothing to do about it
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
