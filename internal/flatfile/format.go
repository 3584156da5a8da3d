package flatfile

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format is the delimited format of a flat file, spelled as the service
// spells it.
type Format string

// The flat file formats the service accepts.
const (
	// FormatCSV is a comma-separated file.
	FormatCSV Format = "CSV"
	// FormatPSV is a pipe-separated file.
	FormatPSV Format = "PSV"
	// FormatTDF is a tab-separated file.
	FormatTDF Format = "TDF"
)

// Formats lists the formats the service accepts, in the order error
// messages name them.
var Formats = []Format{FormatCSV, FormatPSV, FormatTDF}

// Delimiter returns the field separator of the format, or 0 when unknown.
func (f Format) Delimiter() rune {
	switch f {
	case FormatCSV:
		return ','
	case FormatPSV:
		return '|'
	case FormatTDF:
		return '\t'
	}
	return 0
}

// FormatFromExtension maps a file name's extension to a format: .csv to CSV,
// .psv to PSV, .tsv, .tdf and .tab to TDF. ok is false for anything else.
func FormatFromExtension(name string) (Format, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", false
	}
	switch strings.ToLower(name[i+1:]) {
	case "csv":
		return FormatCSV, true
	case "psv":
		return FormatPSV, true
	case "tsv", "tdf", "tab":
		return FormatTDF, true
	}
	return "", false
}

// Extension is the extension FormatFromExtension maps to f, the one a
// file with no name of its own is given (such as data.tsv): psv, tsv,
// else csv.
func (f Format) Extension() string {
	switch f {
	case FormatPSV:
		return "psv"
	case FormatTDF:
		return "tsv"
	}
	return "csv"
}

// Encoding is the character encoding of a flat file, spelled as the service
// spells it.
type Encoding string

// The encodings the service accepts.
const (
	// EncodingUTF8 is UTF-8, with or without a byte order mark.
	EncodingUTF8 Encoding = "UTF-8"
	// EncodingUTF16 is UTF-16 in the byte order its byte order mark gives,
	// big-endian without one.
	EncodingUTF16 Encoding = "UTF-16"
	// EncodingLatin1 is Windows Latin-1, that is Windows-1252.
	EncodingLatin1 Encoding = "Windows Latin-1"
)

// Encodings lists the encodings the service accepts.
var Encodings = []Encoding{EncodingUTF8, EncodingUTF16, EncodingLatin1}

// Known reports whether e is an encoding the service accepts (Encodings).
func (e Encoding) Known() bool { return slices.Contains(Encodings, e) }

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
