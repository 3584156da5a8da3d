package localfile

import (
	"path/filepath"
	"sync"
	"sync/atomic"
)

// fileReads counts, per absolute path, the times a file was read whole in
// this process (hashing and sends): tests assert on it through Reads.
var fileReads sync.Map // string -> *atomic.Int64

// countRead counts one whole read of the file at p.
func countRead(p string) {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	n, _ := fileReads.LoadOrStore(abs, new(atomic.Int64))
	n.(*atomic.Int64).Add(1) //nolint:forcetypeassert // only *atomic.Int64 is stored
}

// Reads returns how many times this process read the file at abs whole.
func Reads(abs string) int64 {
	if n, ok := fileReads.Load(abs); ok {
		return n.(*atomic.Int64).Load() //nolint:forcetypeassert // only *atomic.Int64 is stored
	}
	return 0
}
