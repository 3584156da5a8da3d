//go:build darwin || freebsd || netbsd || dragonfly

package provider

import (
	"os"
	"syscall"
)

// identityOf reads a file's identity from its metadata (Stat_t.Ctimespec
// on this system); false when the metadata is not a Stat_t.
func identityOf(fi os.FileInfo) (fileIdentity, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileIdentity{}, false
	}
	return fileIdentity{
		Size:    fi.Size(),
		MtimeNs: fi.ModTime().UnixNano(),
		CtimeNs: st.Ctimespec.Nano(),
		Inode:   st.Ino,
		Device:  uint64(st.Dev), //nolint:unconvert // int32 on some systems
	}, true
}
