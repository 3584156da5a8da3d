//go:build linux || openbsd || darwin || freebsd || netbsd || dragonfly

package localfile

import (
	"os"
	"syscall"
)

// identityOf reads a file's identity from its metadata (a Stat_t, whose
// times statTimes reads on this system); false when the metadata is not a
// Stat_t.
func identityOf(fi os.FileInfo) (Identity, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{}, false
	}
	_, ctime := statTimes(st)
	return Identity{
		Size:    fi.Size(),
		MtimeNs: fi.ModTime().UnixNano(),
		CtimeNs: ctime,
		Inode:   st.Ino,
		Device:  uint64(st.Dev), //nolint:unconvert // int32 on some systems
	}, true
}
