//go:build !(linux || openbsd || darwin || freebsd || netbsd || dragonfly)

package localfile

import (
	"os"
	"testing"
)

// TestIdentityOf: without a change time and inode, no identity: every plan
// reads the file.
func TestIdentityOf(t *testing.T) {
	p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n4000,1\n"))
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if id, ok := identityOf(fi); ok {
		t.Fatalf("identity %+v on a system without one", id)
	}
	if _, _, ok := StatPath(p); ok {
		t.Fatal("StatPath found an identity")
	}
}
