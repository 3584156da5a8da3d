package localfile

import (
	"os"
	"path/filepath"
	"sync/atomic"
)

// Identity is what the file system says about a file without reading it:
// its size, modification and change times in nanoseconds, inode and device.
// Any write to the file changes its change time (and so does a chmod).
type Identity struct {
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtime_ns"`
	CtimeNs int64  `json:"ctime_ns"`
	Inode   uint64 `json:"inode"`
	Device  uint64 `json:"device"`
}

// StatPath returns the absolute path of p and the identity of the regular
// file it names; false when either is not available (then nothing is
// cached, and the file is read).
func StatPath(p string) (string, Identity, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", Identity{}, false
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return "", Identity{}, false
	}
	id, ok := identityOf(fi)
	return abs, adjustIdentity(abs, id), ok
}

// stableIdentity returns the absolute path and identity of the open file
// fh when its identity was the same before it was read (before) and now.
func stableIdentity(fh *os.File, before os.FileInfo) (string, Identity, bool) {
	abs, err := filepath.Abs(fh.Name())
	if err != nil {
		return "", Identity{}, false
	}
	after, err := fh.Stat()
	if err != nil {
		return "", Identity{}, false
	}
	id1, ok1 := identityOf(before)
	id2, ok2 := identityOf(after)
	if !ok1 || !ok2 || id1 != id2 {
		return "", Identity{}, false
	}
	return abs, adjustIdentity(abs, id1), true
}

// IdentityHook, when set (tests only), changes every identity read for a
// path: it simulates file systems whose timestamps do not move.
var IdentityHook atomic.Pointer[func(abs string, id Identity) Identity]

// adjustIdentity applies IdentityHook, when set, to the identity read for abs.
func adjustIdentity(abs string, id Identity) Identity {
	if h := IdentityHook.Load(); h != nil {
		return (*h)(abs, id)
	}
	return id
}
