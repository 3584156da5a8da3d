package etl

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// FileMetadata is the JSON object sent in the "metadata" part of a file
// upload: {"input": {...}}.
type FileMetadata struct {
	Input FileInput `json:"input"`
}

// FileInput describes the uploaded file. PartName must equal the form name
// of the file part.
type FileInput struct {
	PartName     string            `json:"partName"`
	FileFormat   flatfile.Format   `json:"fileFormat"`
	FileEncoding flatfile.Encoding `json:"fileEncoding"`
	FileName     string            `json:"fileName"`
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
