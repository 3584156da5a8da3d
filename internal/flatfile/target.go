package flatfile

import (
	"bytes"
	"fmt"
	"io"
)

// FileCheckLimit bounds the plan-time check of a file: its first 64 MiB
// are checked (encoding, header, quoting, row widths); a larger file is
// hashed whole but only its head is checked.
const FileCheckLimit = 64 << 20

// FileTarget is the format and encoding a file's bytes are checked
// against and counted in, both known to the service (TargetOf).
type FileTarget struct {
	Format   Format
	Encoding Encoding
}

// TargetOf returns the target of a file in format and encoding; false when
// either is not one the service knows, and the bytes then go unchecked.
func TargetOf(format, encoding string) (FileTarget, bool) {
	t := FileTarget{Format: Format(format), Encoding: Encoding(encoding)}
	if unknownTarget(t.Format, t.Encoding) != "" {
		return FileTarget{}, false
	}
	return t, true
}

// unknownTarget says which of format and enc the service does not know,
// or "" when it knows both.
func unknownTarget(format Format, enc Encoding) string {
	switch {
	case format.Delimiter() == 0:
		return fmt.Sprintf("format %q is not one of CSV, PSV, TDF", format)
	case !enc.Known():
		return fmt.Sprintf("encoding %q is not one of UTF-8, UTF-16, Windows Latin-1", enc)
	}
	return ""
}

// Key names t, such as "CSV/UTF-8": what a record of a file's hash says
// the file was checked and counted against.
func (t FileTarget) Key() string { return string(t.Format) + "/" + string(t.Encoding) }

// CheckHead checks a file's head, r, against t: its first FileCheckLimit
// bytes; the first problem found, or nil.
func (t FileTarget) CheckHead(r io.Reader) error {
	_, err := CheckFile(r, t.Format, t.Encoding, FileCheckLimit)
	return err
}

// Check checks b whole against t: the first problem found, or nil.
func (t FileTarget) Check(b []byte) error {
	_, err := CheckFile(bytes.NewReader(b), t.Format, t.Encoding, 0)
	return err
}

// Counter returns a new RowCounter of a file in t.
func (t FileTarget) Counter() (*RowCounter, error) { return NewRowCounter(t.Format, t.Encoding) }
