package provider

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// fileProblem is a user-facing problem with a file path, found before
// anything is sent.
type fileProblem struct {
	Summary, Detail string
}

func (p *fileProblem) Error() string { return p.Summary + ": " + p.Detail }

// statImportFile checks that p names a regular, readable file.
func statImportFile(p string) error {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &fileProblem{"File not found", fmt.Sprintf("The file %q does not exist (relative paths are relative to the directory Terraform runs in; use \"${path.module}/...\" for a file beside the configuration). "+
			"If another resource writes the file during apply, reference one of that resource's attributes that is unknown until apply, so that the file is read only then.", p)}
	case err != nil:
		return &fileProblem{"File not readable", fmt.Sprintf("The file %q cannot be read: %s.", p, err)}
	case fi.IsDir():
		return &fileProblem{"Path is a directory", fmt.Sprintf("%q is a directory: file.path must name a file.", p)}
	case !fi.Mode().IsRegular():
		return &fileProblem{"Not a regular file", fmt.Sprintf("%q is not a regular file (%s): file.path must name a file.", p, fi.Mode().Type())}
	}
	return nil
}

// openRegularFile checks that p names a regular file and opens it; its
// errors are fileProblems that say what to fix.
func openRegularFile(p string) (*os.File, error) {
	if err := statImportFile(p); err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, &fileProblem{"File not readable", fmt.Sprintf("The file %q cannot be opened: %s.", p, err)}
	}
	return f, nil
}

// readProblem is a read of p that failed part way.
func readProblem(p string, err error) error {
	return &fileProblem{"File not readable", fmt.Sprintf("Reading %q failed: %s.", p, err)}
}
