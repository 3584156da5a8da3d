package localfile

import "sync/atomic"

// ReadHook, when set (tests only), is called with the name of a file each
// time this process reads it whole: a hash (HashFile, Open without a
// hash) and each attempt of a send. Tests count reads with it.
var ReadHook atomic.Pointer[func(name string)]

// countRead reports one whole read of the file at p to ReadHook, when set.
func countRead(p string) {
	if h := ReadHook.Load(); h != nil {
		(*h)(p)
	}
}
