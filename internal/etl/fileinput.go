package etl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// FileFormat is the delimited format of a flat file.
type FileFormat string

// The flat file formats the service accepts.
const (
	// FormatCSV is a comma-separated file.
	FormatCSV FileFormat = "CSV"
	// FormatPSV is a pipe-separated file.
	FormatPSV FileFormat = "PSV"
	// FormatTDF is a tab-separated file.
	FormatTDF FileFormat = "TDF"
)

// FileFormats lists the formats the service accepts, in the order error
// messages name them.
var FileFormats = []FileFormat{FormatCSV, FormatPSV, FormatTDF}

// Delimiter returns the field separator of the format, or 0 when unknown.
func (f FileFormat) Delimiter() rune {
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
func FormatFromExtension(name string) (FileFormat, bool) {
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
func (f FileFormat) Extension() string {
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

// Encodings lists the encodings the service accepts; FileInput.Validate
// refuses any other.
var Encodings = []Encoding{EncodingUTF8, EncodingUTF16, EncodingLatin1}

// FileMetadata is the JSON object sent in the "metadata" part of a file
// upload: {"input": {...}}.
type FileMetadata struct {
	Input FileInput `json:"input"`
}

// FileInput describes the uploaded file. PartName must equal the form name
// of the file part.
type FileInput struct {
	PartName     string     `json:"partName"`
	FileFormat   FileFormat `json:"fileFormat"`
	FileEncoding Encoding   `json:"fileEncoding"`
	FileName     string     `json:"fileName"`
}

// FileUpload is a flat file to send. Open is called once per attempt and its
// reader is streamed into the multipart body as it is sent; it is never read
// whole into memory. Size, when known (>= 0), lets the request carry an exact
// Content-Length; -1 means unknown (chunked).
type FileUpload struct {
	Input FileInput
	Open  func() (io.ReadCloser, error)
	Size  int64
}

// DefaultPartName is the name of the multipart part that carries a file
// unless another is given (CSVFile's).
const DefaultPartName = "file"

// BytesFile is the upload of b, a file held in memory (such as inline
// content, as EncodeText encodes it), as input says: each attempt reads b
// from its start.
func BytesFile(input FileInput, b []byte) FileUpload {
	return FileUpload{Input: input, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }, Size: int64(len(b))}
}

// Validate checks the file metadata before anything is sent: a part name
// and a file name, both passing CheckPartHeaderValue, a known format and a
// known encoding.
func (in FileInput) Validate() error {
	switch {
	case in.PartName == "":
		return errors.New("file part name is empty")
	case in.FileName == "":
		return errors.New("file name is empty")
	}
	if err := CheckPartHeaderValue(in.PartName); err != nil {
		return fmt.Errorf("file part name %q %w", in.PartName, err)
	}
	if err := CheckPartHeaderValue(in.FileName); err != nil {
		return fmt.Errorf("file name %q %w", in.FileName, err)
	}
	switch {
	case in.FileFormat.Delimiter() == 0:
		return fmt.Errorf("file format %q is not one of CSV, PSV, TDF", in.FileFormat)
	case !in.FileEncoding.Known():
		return fmt.Errorf("file encoding %q is not one of UTF-8, UTF-16, Windows Latin-1", in.FileEncoding)
	}
	return nil
}
