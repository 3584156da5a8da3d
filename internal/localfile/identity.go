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

// StatPath returns the key path (canonicalPath) and the identity of the
// regular file the system opens by the name p; false when either is not
// available (then nothing is cached, and the file is read). p is stat'ed
// as given, resolved as an open of p resolves it (symbolic links, then
// ".." from where they lead), never as cleaned text: with work -> real/sub,
// work/../data.csv is real/data.csv, not ./data.csv.
func StatPath(p string) (string, Identity, bool) {
	fi, err := os.Stat(p) //nolint:gosec // the user's file, named as the open of it will name it
	if err != nil || !fi.Mode().IsRegular() {
		return "", Identity{}, false
	}
	id, ok := identityOf(fi)
	if !ok {
		return "", Identity{}, false
	}
	abs, ok := keyPath(p, fi)
	if !ok {
		return "", Identity{}, false
	}
	return abs, adjustIdentity(abs, id), true
}

// stableIdentity returns the key path and identity of the open file fh
// when its identity was the same before it was read (before) and now. The
// identity is the descriptor's (fstat): that of the bytes read.
func stableIdentity(fh *os.File, before os.FileInfo) (string, Identity, bool) {
	after, err := fh.Stat()
	if err != nil {
		return "", Identity{}, false
	}
	id1, ok1 := identityOf(before)
	id2, ok2 := identityOf(after)
	if !ok1 || !ok2 || id1 != id2 {
		return "", Identity{}, false
	}
	abs, ok := keyPath(fh.Name(), after)
	if !ok {
		return "", Identity{}, false
	}
	return abs, adjustIdentity(abs, id1), true
}

// keyPath returns the path a record of the file named name, whose metadata
// is fi, is kept under: its canonicalPath, provided that path is still the
// same file (a link changed since name was resolved: false, and the file
// is read). The identity is what makes a record the file's; the path only
// keeps records of different files apart, so two names of one file under
// two key paths (hard links, bind mounts) only cost a read.
func keyPath(name string, fi os.FileInfo) (string, bool) {
	abs, err := canonicalPath(name)
	if err != nil {
		return "", false
	}
	now, err := os.Stat(abs) //nolint:gosec // the resolved name of the user's file, stat'ed only
	if err != nil || !os.SameFile(fi, now) {
		return "", false
	}
	return abs, true
}

// canonicalPath is the absolute name of the file named p with every
// symbolic link resolved the way the system resolves them when it opens
// p. A relative p is joined to the working directory as text, not cleaned
// (filepath.Abs and filepath.Join clean, and cleaning removes "dir/.."
// before dir is known to be a link); filepath.EvalSymlinks then walks the
// name one component at a time, resolving each link before the ".." that
// follows it, as the kernel does.
func canonicalPath(p string) (string, error) {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p = wd + string(filepath.Separator) + p
	}
	return filepath.EvalSymlinks(p)
}

// IdentityHook, when set (tests only), changes every identity read for a
// path (abs: its key path): it simulates file systems whose timestamps do
// not move.
var IdentityHook atomic.Pointer[func(abs string, id Identity) Identity]

// adjustIdentity applies IdentityHook, when set, to the identity read for
// the key path abs.
func adjustIdentity(abs string, id Identity) Identity {
	if h := IdentityHook.Load(); h != nil {
		return (*h)(abs, id)
	}
	return id
}
