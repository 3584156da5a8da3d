// Package orphans stops the processes a killed CLI left running: the
// provider processes of a terraform that was SIGKILLed keep running,
// orphaned, in the directory it ran in. For the tests that kill CLIs (the
// provider's acceptance tests and the explorer); Linux only, as it reads
// /proc (elsewhere it finds nothing).
package orphans

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Stop kills every process whose executable's path match accepts and
// whose working directory is under dir.
func Stop(dir string, match func(exe string) bool) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if !match(exe) || !strings.HasPrefix(cwd, dir) {
			continue
		}
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
}
