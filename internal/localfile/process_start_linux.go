//go:build linux

package localfile

import (
	"os"
	"strconv"
	"strings"
)

// processStart is pid's start time in clock ticks since boot: field 22 of
// /proc/<pid>/stat, counted after the command's closing parenthesis (the
// command may hold spaces and parentheses).
func processStart(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(s[i+1:])
	const startField = 22 - 3 // fields 1 (pid) and 2 (comm) precede ")", field 3 is fields[0]
	if len(fields) <= startField {
		return 0, false
	}
	n, err := strconv.ParseUint(fields[startField], 10, 64)
	return n, err == nil
}
