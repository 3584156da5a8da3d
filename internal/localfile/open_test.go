package localfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOpenRegular: a regular file opens; what is not one, or cannot be
// read, is a *PathError of its Kind, from OpenRegular and from HashFile.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "gl.csv", []byte("Account,Amount\n4000,1\n"))
	f, err := OpenRegular(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != "Account,Amount\n4000,1\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	missing := filepath.Join(dir, "missing.csv")
	bad := "gl\x00.csv"
	for _, tc := range []struct {
		name  string
		path  string
		kind  Kind
		wrap  error // what the error wraps, nil for none
		text  string
		noErr bool // the error wraps no system error
	}{
		{"missing", missing, NotFound, fs.ErrNotExist, `the file "` + missing + `" does not exist`, false},
		{"directory", dir, IsDir, nil, `"` + dir + `" is a directory`, true},
		{"a name the system refuses", bad, Unreadable, nil, `stat "gl\x00.csv": `, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := OpenRegular(tc.path)
			var pe *PathError
			if f != nil || !errors.As(err, &pe) {
				t.Fatalf("OpenRegular = %v, %v; want a *PathError", f, err)
			}
			if pe.Kind != tc.kind || pe.Op != OpStat || pe.Path != tc.path || (pe.Err == nil) != tc.noErr {
				t.Fatalf("%+v; want kind %d on stat of %q", pe, tc.kind, tc.path)
			}
			if tc.wrap != nil && !errors.Is(err, tc.wrap) {
				t.Errorf("%v does not wrap %v", err, tc.wrap)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.text) || (tc.kind != Unreadable && msg != tc.text) {
				t.Errorf("Error() = %q, want %q", msg, tc.text)
			}
			if tc.kind == Unreadable && !strings.HasSuffix(err.Error(), pe.Err.Error()) {
				t.Errorf("Error() = %q does not say the system's error %q", err, pe.Err)
			}
			// HashFile fails the same way.
			var hpe *PathError
			if r, _, err := HashFile(tc.path, HashOptions{}); r != nil || !errors.As(err, &hpe) || hpe.Kind != tc.kind {
				t.Errorf("HashFile = %+v, %v", r, err)
			}
		})
	}
}

// TestOpenRegularUnreadable: a regular file that cannot be opened, or read.
func TestOpenRegularUnreadable(t *testing.T) {
	t.Run("no permission", func(t *testing.T) {
		if runtime.GOOS == "windows" || os.Geteuid() == 0 {
			t.Skip("a mode of 000 does not keep this user (root, or on Windows) from opening a file")
		}
		p := writeFile(t, t.TempDir(), "gl.csv", []byte("Account,Amount\n"))
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		f, err := OpenRegular(p)
		var pe *PathError
		if f != nil || !errors.As(err, &pe) || pe.Kind != Unreadable || pe.Op != OpOpen || !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("OpenRegular = %v, %v; want an Unreadable open", f, err)
		}
		if !strings.HasPrefix(err.Error(), `open "`+p+`": `) {
			t.Errorf("Error() = %q", err)
		}
	})
	t.Run("read fails", func(t *testing.T) {
		// /proc/self/mem is a regular file whose read at offset 0 fails
		// (nothing is mapped there).
		const mem = "/proc/self/mem"
		if fi, err := os.Stat(mem); runtime.GOOS != "linux" || err != nil || !fi.Mode().IsRegular() {
			t.Skip("no /proc/self/mem (a regular file whose read fails) on this system")
		}
		r, _, err := HashFile(mem, HashOptions{})
		var pe *PathError
		if r != nil || !errors.As(err, &pe) || pe.Kind != Unreadable || pe.Op != OpRead || pe.Err == nil {
			t.Fatalf("HashFile = %+v, %v; want an Unreadable read", r, err)
		}
		if !strings.HasPrefix(err.Error(), `read "/proc/self/mem": `) {
			t.Errorf("Error() = %q", err)
		}
		// Open, which hashes a file without an expected hash, too.
		if o, err := Open(mem, ""); o != nil || !errors.As(err, &pe) || pe.Op != OpRead {
			t.Fatalf("Open = %v, %v; want an Unreadable read", o, err)
		}
	})
}

func TestPathErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *PathError
		want string
	}{
		{&PathError{Op: OpStat, Kind: NotFound, Path: "gl.csv", Err: fs.ErrNotExist}, `the file "gl.csv" does not exist`},
		{&PathError{Op: OpStat, Kind: IsDir, Path: "data"}, `"data" is a directory`},
		{&PathError{Op: OpStat, Kind: NotRegular, Path: "pipe", Mode: fs.ModeNamedPipe | 0o600}, `"pipe" is not a regular file (p---------)`},
		{&PathError{Op: OpStat, Kind: NotRegular, Path: "null", Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}, `"null" is not a regular file (Dc---------)`},
		{&PathError{Op: OpOpen, Kind: Unreadable, Path: "gl.csv", Err: fs.ErrPermission}, `open "gl.csv": permission denied`},
		{&PathError{Op: OpRead, Kind: Unreadable, Path: "gl.csv", Err: io.ErrUnexpectedEOF}, `read "gl.csv": unexpected EOF`},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
		if !errors.Is(tc.err, tc.err.Err) && tc.err.Err != nil {
			t.Errorf("%v does not unwrap to %v", tc.err, tc.err.Err)
		}
	}
}
