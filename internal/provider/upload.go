package provider

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// extensionFor is the extension of the default file name of inline content.
func extensionFor(f etl.FileFormat) string {
	switch f {
	case etl.FormatPSV:
		return "psv"
	case etl.FormatTDF:
		return "tsv"
	}
	return "csv"
}

// defaultFormat derives the file format from the extension of the path,
// else of the configured file name.
func defaultFormat(filePath, name string) (etl.FileFormat, bool) {
	if filePath != "" {
		if f, ok := etl.FormatFromExtension(filePath); ok {
			return f, true
		}
	}
	if name != "" {
		return etl.FormatFromExtension(name)
	}
	return "", false
}

// defaultName is the file name sent when none is configured: the base name
// of the path, or data.<ext> for inline content.
func defaultName(filePath string, format etl.FileFormat) string {
	if filePath != "" {
		return filepath.Base(filePath)
	}
	return "data." + extensionFor(format)
}

// encodeContent encodes inline (UTF-8) text to the declared encoding: the
// bytes that are sent. UTF-16 is little-endian with a byte order mark.
func encodeContent(s string, enc etl.Encoding) ([]byte, error) {
	switch enc {
	case etl.EncodingUTF8:
		return []byte(s), nil
	case etl.EncodingUTF16:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	case etl.EncodingLatin1:
		out := make([]byte, 0, len(s))
		line, col := 1, 0
		for _, r := range s {
			col++
			b, ok := charmap.Windows1252.EncodeRune(r)
			if !ok {
				return nil, fmt.Errorf("the character %q (U+%04X) on line %d, column %d cannot be written in Windows Latin-1: "+
					"use encoding \"UTF-8\" or \"UTF-16\", or remove the character", r, r, line, col)
			}
			out = append(out, b)
			if r == '\n' {
				line, col = line+1, 0
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("encoding %q is not one of UTF-8, UTF-16, Windows Latin-1", enc)
}

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

// hashFile streams the file into SHA-256 (never reading it whole into
// memory) and returns the hex digest and the size.
func hashFile(p string) (string, int64, error) {
	f, err := openRegularFile(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	sum, n, err := hashReader(f)
	if err != nil {
		return "", 0, readProblem(p, err)
	}
	return sum, n, nil
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

// hashBytes returns the SHA-256 hex digest of b.
func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// hashRows returns the SHA-256 hex digest and the size of the JSON body
// start-with-data sends for the rows.
func hashRows(rows [][]string) (string, int64) {
	h := sha256.New()
	n, _ := etl.DataUpload{Rows: rows}.WriteTo(h)
	return hex.EncodeToString(h.Sum(nil)), n
}

// rowsPayload is how rows are sent: as the JSON body of start with data
// when it fits the service's limit, else as a UTF-8 CSV file through start
// with file (asFile). sum is the SHA-256 of the bytes sent either way, and
// jsonSize the length of the JSON body.
func rowsPayload(rows [][]string) (sum string, asFile bool, jsonSize int64) {
	sum, jsonSize = hashRows(rows)
	if jsonSize <= etl.MaxDataBodyBytes {
		return sum, false, jsonSize
	}
	h := sha256.New()
	_, _ = etl.DataUpload{Rows: rows}.WriteCSV(h)
	return hex.EncodeToString(h.Sum(nil)), true, jsonSize
}

// rowsAsFileDetail explains the warning about rows sent as a file.
func rowsAsFileDetail(jsonSize int64) string {
	return fmt.Sprintf("The rows encode to a %d-byte JSON body, over the %d-byte limit of start with data, so they are sent instead as a UTF-8 CSV file (%s) "+
		"through start with file, with the same header, rows and template. content_sha256 is the SHA-256 of that CSV file. "+
		"To silence this warning, write the rows to a file and use file.path.", jsonSize, etl.MaxDataBodyBytes, etl.CSVFileName)
}

const rowsAsFileSummary = "Rows sent as a CSV file"

// openedFile is a file opened once for an upload: every attempt reads the
// same open file, and hashes the bytes as it sends them. A reader that
// reaches the end withholds the file's last bytes until they check out
// against the expected SHA-256, so bytes other than the planned ones are
// never sent whole: the request is aborted and the service never receives
// a complete body.
type openedFile struct {
	f    *os.File
	size int64
	sum  string
}

// openImportFile opens the file to send. want is the SHA-256 the plan
// recorded: the bytes are then checked against it while they are sent, and
// the file is read once. Without it (the path was unknown at plan), the
// file is hashed first, so that the state records the hash of what is sent.
func openImportFile(p, want string) (*openedFile, error) {
	f, err := openRegularFile(p)
	if err != nil {
		return nil, err
	}
	if want != "" {
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, &fileProblem{"File not readable", fmt.Sprintf("The file %q cannot be read: %s.", p, err)}
		}
		return &openedFile{f: f, size: fi.Size(), sum: want}, nil
	}
	sum, n, err := hashReader(f)
	if err != nil {
		f.Close()
		return nil, readProblem(p, err)
	}
	return &openedFile{f: f, size: n, sum: sum}, nil
}

func (o *openedFile) Close() error { return o.f.Close() }

// Open returns a fresh reader of the file's bytes for one attempt.
func (o *openedFile) Open() (io.ReadCloser, error) {
	return &verifyingReader{r: io.NewSectionReader(o.f, 0, o.size), size: o.size, h: sha256.New(), want: o.sum, name: o.f.Name()}, nil
}

// verifyingReader hashes what it reads. The read that would hand over the
// last bytes first compares the digest: on a mismatch (or a file that
// ended early) it returns an *etl.UploadAbortedError instead of those
// bytes, so the request body is never complete and is not retried.
type verifyingReader struct {
	r    io.Reader
	size int64 // bytes expected
	off  int64 // bytes read so far
	h    hash.Hash
	want string
	name string
	err  error // sticky
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	if v.err != nil {
		return 0, v.err
	}
	if v.off >= v.size {
		v.err = v.check()
		if v.err == nil {
			v.err = io.EOF
		}
		return 0, v.err
	}
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	v.off += int64(n)
	switch {
	case v.off >= v.size:
		// Every byte is read: these are the last ones. Hand them over only
		// when the whole file checks out.
		if v.err = v.check(); v.err != nil {
			return 0, v.err
		}
		v.err = io.EOF
		return n, nil
	case errors.Is(err, io.EOF):
		v.err = &etl.UploadAbortedError{Err: fmt.Errorf("the file %s shrank to %d bytes while it was being sent (it had %d): the upload was aborted", v.name, v.off, v.size)}
		return 0, v.err
	}
	return n, err
}

func (v *verifyingReader) check() error {
	if got := hex.EncodeToString(v.h.Sum(nil)); got != v.want {
		return &etl.UploadAbortedError{Err: &changedError{name: v.name, got: got, want: v.want}}
	}
	return nil
}

func (v *verifyingReader) Close() error { return nil }

// changedError: the bytes of the file are not the planned ones.
type changedError struct{ name, got, want string }

func (e *changedError) Error() string {
	return fmt.Sprintf("the file %s changed after plan or while it was being sent (SHA-256 %s, expected %s): the upload was aborted before its end", e.name, e.got, e.want)
}

// bytesOpener serves inline content.
func bytesOpener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}
