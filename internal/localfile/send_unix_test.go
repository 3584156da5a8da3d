//go:build linux || openbsd || darwin || freebsd || netbsd || dragonfly

package localfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenRegularNotRegular: a named pipe (which an open would block on)
// and a device are refused before they are opened.
func TestOpenRegularNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "gl.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		mode fs.FileMode
		text string
	}{
		{fifo, fs.ModeNamedPipe, `"` + fifo + `" is not a regular file (p---------)`},
		{os.DevNull, fs.ModeCharDevice, `"` + os.DevNull + `" is not a regular file (Dc---------)`},
	} {
		f, err := OpenRegular(tc.path)
		var pe *PathError
		if f != nil || !errors.As(err, &pe) || pe.Kind != NotRegular || pe.Op != OpStat || pe.Mode&tc.mode == 0 || pe.Err != nil {
			t.Fatalf("%s: OpenRegular = %v, %v; want a NotRegular *PathError", tc.path, f, err)
		}
		if err.Error() != tc.text {
			t.Errorf("Error() = %q, want %q", err, tc.text)
		}
		if r, _, err := HashFile(tc.path, HashOptions{}); r != nil || !errors.As(err, &pe) || pe.Kind != NotRegular {
			t.Errorf("%s: HashFile = %+v, %v", tc.path, r, err)
		}
		if o, err := Open(tc.path, ""); o != nil || !errors.As(err, &pe) || pe.Kind != NotRegular {
			t.Errorf("%s: Open = %v, %v", tc.path, o, err)
		}
		if _, _, ok := StatPath(tc.path); ok {
			t.Errorf("%s: StatPath gave an identity", tc.path)
		}
	}
	// A path through a regular file, as if it were a directory: the stat
	// fails with the system's error.
	through := filepath.Join(writeFile(t, t.TempDir(), "gl.csv", nil), "x")
	f, err := OpenRegular(through)
	var pe *PathError
	if f != nil || !errors.As(err, &pe) || pe.Kind != Unreadable || !errors.Is(err, syscall.ENOTDIR) || !strings.HasPrefix(err.Error(), `stat "`+through+`": `) {
		t.Fatalf("through a file: %v, %v", f, err)
	}
}
