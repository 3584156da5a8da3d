package localfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Op is what was being done with a file when it failed.
type Op string

// The operations a PathError names.
const (
	OpStat Op = "stat" // reading its metadata
	OpOpen Op = "open"
	OpRead Op = "read" // a read that failed part way
)

// PathError is a file that cannot be used, found before anything is sent:
// it does not exist, is not a regular file, or cannot be read. Kind says
// which; Err is the system's error, when there is one.
type PathError struct {
	Op   Op
	Kind Kind
	Path string
	Mode fs.FileMode // the file's type, for NotRegular
	Err  error
}

// Kind is what is wrong with a file.
type Kind int

// The kinds of PathError.
const (
	Unreadable Kind = iota // metadata, open or read failed: see Op and Err
	NotFound
	IsDir
	NotRegular
)

func (e *PathError) Error() string {
	switch e.Kind {
	case NotFound:
		return fmt.Sprintf("the file %q does not exist", e.Path)
	case IsDir:
		return fmt.Sprintf("%q is a directory", e.Path)
	case NotRegular:
		return fmt.Sprintf("%q is not a regular file (%s)", e.Path, e.Mode.Type())
	}
	return fmt.Sprintf("%s %q: %s", e.Op, e.Path, e.Err)
}

func (e *PathError) Unwrap() error { return e.Err }

// OpenRegular checks that p names a regular file (stat'ed first, so that
// a named pipe is never opened) and opens it; its errors are *PathErrors.
func OpenRegular(p string) (*os.File, error) {
	fi, err := os.Stat(p) //nolint:gosec // G703: the path is the user's configuration; reading it is the point
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &PathError{Op: OpStat, Kind: NotFound, Path: p, Err: err}
	case err != nil:
		return nil, &PathError{Op: OpStat, Path: p, Err: err}
	case fi.IsDir():
		return nil, &PathError{Op: OpStat, Kind: IsDir, Path: p}
	case !fi.Mode().IsRegular():
		return nil, &PathError{Op: OpStat, Kind: NotRegular, Path: p, Mode: fi.Mode()}
	}
	f, err := os.Open(p) //nolint:gosec // G703: as above
	if err != nil {
		return nil, &PathError{Op: OpOpen, Path: p, Err: err}
	}
	return f, nil
}
