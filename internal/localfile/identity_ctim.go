//go:build linux || openbsd || dragonfly

package localfile

import "syscall"

// statTimes returns a Stat_t's modification and change times in
// nanoseconds (Mtim and Ctim on this system).
func statTimes(st *syscall.Stat_t) (mtimeNs, ctimeNs int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}
