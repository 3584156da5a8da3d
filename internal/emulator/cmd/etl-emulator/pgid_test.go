//go:build unix && !solaris

package main

import "syscall"

// leadsOwnGroup reports whether process pid leads its process group, as a
// process that started a new session does.
func leadsOwnGroup(pid int) (bool, error) {
	pgid, err := syscall.Getpgid(pid)
	return pgid == pid, err
}
