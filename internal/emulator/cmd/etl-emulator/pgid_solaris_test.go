package main

import (
	"os/exec"
	"strconv"
	"strings"
)

// leadsOwnGroup reports whether process pid leads its process group, as a
// process that started a new session does (syscall has no Getpgid here).
func leadsOwnGroup(pid int) (bool, error) {
	out, err := exec.Command("ps", "-o", "pgid=", "-p", strconv.Itoa(pid)).Output()
	return strings.TrimSpace(string(out)) == strconv.Itoa(pid), err
}
