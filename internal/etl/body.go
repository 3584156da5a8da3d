package etl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"unicode/utf8"
)

// Validate checks the file metadata before anything is sent.
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
	case !validEncoding(in.FileEncoding):
		return fmt.Errorf("file encoding %q is not one of UTF-8, UTF-16, Windows Latin-1", in.FileEncoding)
	}
	return nil
}

func validEncoding(e Encoding) bool {
	for _, v := range Encodings {
		if e == v {
			return true
		}
	}
	return false
}

// newMultipartBody lays out the multipart form of a file upload: a metadata
// part, then the file part named as metadata.input.partName. Only the parts'
// headers are held in memory; the file is read from f.Open as the body is
// sent, and the body's exact length is known when f.Size is.
func newMultipartBody(f FileUpload) (*body, error) {
	if err := f.Input.Validate(); err != nil {
		return nil, err
	}
	if f.Open == nil {
		return nil, errors.New("file upload has no content to open")
	}
	meta, err := json.Marshal(FileMetadata{Input: f.Input})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mh := textproto.MIMEHeader{}
	mh.Set("Content-Disposition", `form-data; name="metadata"`)
	mh.Set("Content-Type", "application/json")
	pw, err := mw.CreatePart(mh)
	if err != nil {
		return nil, err
	}
	if _, err := pw.Write(meta); err != nil {
		return nil, err
	}
	fh := textproto.MIMEHeader{}
	fh.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, quoteEscape(f.Input.PartName), quoteEscape(f.Input.FileName)))
	fh.Set("Content-Type", "application/octet-stream")
	if _, err := mw.CreatePart(fh); err != nil {
		return nil, err
	}
	head := bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := mw.Close(); err != nil {
		return nil, err
	}
	tail := bytes.Clone(buf.Bytes())

	size := int64(-1)
	if f.Size >= 0 {
		size = int64(len(head)) + f.Size + int64(len(tail))
	}
	return &body{
		contentType: mw.FormDataContentType(),
		size:        size,
		open: func() (io.ReadCloser, error) {
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("opening %s: %w", f.Input.FileName, err)
			}
			return &multipartReader{Reader: io.MultiReader(bytes.NewReader(head), rc, bytes.NewReader(tail)), file: rc}, nil
		},
	}, nil
}

type multipartReader struct {
	io.Reader
	file io.Closer
}

func (m *multipartReader) Close() error { return m.file.Close() }

// newJSONBody encodes the rows once; every attempt sends the same bytes.
func newJSONBody(d DataUpload) (*body, error) {
	if len(d.Rows) == 0 {
		return nil, errors.New("no rows: the first row must be the header row of column names")
	}
	// WriteTo is the one encoder: the bytes sent are the bytes a caller
	// hashes with WriteTo for content_sha256.
	var buf bytes.Buffer
	buf.Grow(d.estimate())
	if _, err := d.WriteTo(&buf); err != nil {
		return nil, err
	}
	raw := buf.Bytes()
	if len(raw) > MaxDataBodyBytes {
		return nil, &DataTooLargeError{Size: int64(len(raw))}
	}
	return &body{
		contentType: "application/json",
		size:        int64(len(raw)),
		open:        func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil },
	}, nil
}

func emptyJSONBody() *body {
	return &body{
		contentType: "application/json",
		size:        0,
		open:        func() (io.ReadCloser, error) { return http.NoBody, nil },
	}
}

// DataTooLargeError: the JSON body of start-with-data would be over the
// service's 25 MB limit.
type DataTooLargeError struct{ Size int64 }

func (e *DataTooLargeError) Error() string {
	return fmt.Sprintf("the rows encode to a %d-byte JSON body, over the %d-byte limit of start with data: send them as a file instead", e.Size, MaxDataBodyBytes)
}

// UploadAbortedError is what a FileUpload's reader returns to stop an
// upload for good, such as a file whose bytes are not the expected ones:
// the request is aborted before the body is complete and never retried.
// The client's error wraps it (errors.As finds it).
type UploadAbortedError struct{ Err error }

func (e *UploadAbortedError) Error() string { return e.Err.Error() }
func (e *UploadAbortedError) Unwrap() error { return e.Err }

// WriteTo writes exactly the JSON body that StartWithData sends:
// {"input":{"data":[[...],...]}}. It is deterministic, so a hash of it
// identifies the data sent.
func (d DataUpload) WriteTo(w io.Writer) (int64, error) {
	const chunk = 64 << 10
	buf := make([]byte, 0, chunk+1024)
	var n int64
	flush := func() error {
		m, err := w.Write(buf)
		n += int64(m)
		buf = buf[:0]
		return err
	}
	buf = append(buf, `{"input":{"data":[`...)
	for i, row := range d.Rows {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendRow(buf, row)
		if len(buf) >= chunk {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	buf = append(buf, "]}}"...)
	return n, flush()
}

// Size returns the length of the JSON body WriteTo writes.
func (d DataUpload) Size() int64 {
	n, _ := d.WriteTo(io.Discard)
	return n
}

// estimate is a close upper-bound guess of the body size for allocation.
func (d DataUpload) estimate() int {
	n := 32
	for _, row := range d.Rows {
		n += 3
		for _, cell := range row {
			n += len(cell) + 3
		}
	}
	return n + n/16
}

func appendRow(dst []byte, row []string) []byte {
	dst = append(dst, '[')
	for j, cell := range row {
		if j > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, cell)
	}
	return append(dst, ']')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Control characters are
// escaped, invalid UTF-8 becomes U+FFFD, and everything else is kept as is
// (unlike encoding/json, '<', '>' and '&' are not escaped: this is not HTML).
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
