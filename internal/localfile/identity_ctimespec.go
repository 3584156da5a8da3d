//go:build darwin || freebsd || netbsd

package localfile

import "syscall"

// statTimes returns a Stat_t's modification and change times in
// nanoseconds (Mtimespec and Ctimespec on this system).
func statTimes(st *syscall.Stat_t) (mtimeNs, ctimeNs int64) {
	return st.Mtimespec.Nano(), st.Ctimespec.Nano()
}
