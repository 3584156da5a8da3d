//go:build unix

package localfile

import (
	"errors"
	"syscall"
)

// processAlive sends pid signal 0: it exists unless that fails with ESRCH.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
