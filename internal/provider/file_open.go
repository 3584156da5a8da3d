package provider

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// fileError is a problem with the file at file.path, found before
// anything is sent: a summary and a detail that says what to fix.
type fileError struct {
	Summary, Detail string
}

func (e *fileError) Error() string { return e.Summary + ": " + e.Detail }

// summaryUnreadable titles every file that cannot be read.
const summaryUnreadable = "File not readable"

// statImportFile checks that p names a regular, readable file.
func statImportFile(p string) error {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &fileError{"File not found", fmt.Sprintf("The file %q does not exist (relative paths are relative to the directory Terraform runs in; use \"${path.module}/...\" for a file beside the configuration). "+
			"If another resource writes the file during apply, reference one of that resource's attributes that is unknown until apply, so that the file is read only then.", p)}
	case err != nil:
		return unreadableError(p, err)
	case fi.IsDir():
		return &fileError{"Path is a directory", fmt.Sprintf("%q is a directory: file.path must name a file.", p)}
	case !fi.Mode().IsRegular():
		return &fileError{"Not a regular file", fmt.Sprintf("%q is not a regular file (%s): file.path must name a file.", p, fi.Mode().Type())}
	}
	return nil
}

// openRegularFile checks that p names a regular file and opens it; its
// errors are fileErrors.
func openRegularFile(p string) (*os.File, error) {
	if err := statImportFile(p); err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, &fileError{summaryUnreadable, fmt.Sprintf("The file %q cannot be opened: %s.", p, err)}
	}
	return f, nil
}

// unreadableError is a file whose metadata cannot be read.
func unreadableError(p string, err error) error {
	return &fileError{summaryUnreadable, fmt.Sprintf("The file %q cannot be read: %s.", p, err)}
}

// readError is a read of p that failed part way.
func readError(p string, err error) error {
	return &fileError{summaryUnreadable, fmt.Sprintf("Reading %q failed: %s.", p, err)}
}
