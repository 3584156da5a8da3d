//go:build linux || openbsd || darwin || freebsd || netbsd || dragonfly

package localfile

import (
	"io/fs"
	"syscall"
)

// fileOwner returns the uid that owns the file whose metadata is fi (a
// Stat_t on this system); false when the metadata is not a Stat_t.
func fileOwner(fi fs.FileInfo) (uint32, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}
