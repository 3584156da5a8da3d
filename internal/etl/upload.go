package etl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

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

// controlNames names the control characters people meet in names.
var controlNames = map[byte]string{
	0x00: "NUL",
	0x08: "backspace",
	0x0a: "line feed",
	0x0b: "vertical tab",
	0x0c: "form feed",
	0x0d: "carriage return",
	0x1b: "escape",
	0x7f: "delete",
}

// CheckPartHeaderValue is the one rule for what a multipart header value
// (a file name, a part name) can carry: every character but the C0 controls
// other than tab (CR, LF, NUL and the rest) and DEL. A refused value would
// break the part's header: a line break ends the header inside the data,
// and a crafted name could add parts. The error names the first refused
// character and its byte offset. Quotes and backslashes are allowed: the
// encoder escapes them, and they arrive as written.
func CheckPartHeaderValue(v string) error {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if (c >= 0x20 && c != 0x7f) || c == '\t' {
			continue
		}
		name, ok := controlNames[c]
		if !ok {
			name = "control character"
		}
		return fmt.Errorf("contains a %s (U+%04X) at byte %d: a multipart header cannot carry control characters other than tab (remove it, e.g. a trailing line break from a file read with file())", name, c, i)
	}
	return nil
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
	head, tail, contentType, err := multipartFrame(f.Input)
	if err != nil {
		return nil, err
	}
	size := int64(-1)
	if f.Size >= 0 {
		size = int64(len(head)) + f.Size + int64(len(tail))
	}
	return &body{
		contentType: contentType,
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

// multipartFrame returns the bytes before the file's content (the metadata
// part and the file part's header) and after it (the closing boundary), of
// an input whose names Validate accepted.
func multipartFrame(in FileInput) (head, tail []byte, contentType string, err error) {
	meta, err := json.Marshal(FileMetadata{Input: in})
	if err != nil {
		return nil, nil, "", err
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mh := textproto.MIMEHeader{}
	mh.Set("Content-Disposition", `form-data; name="metadata"`)
	mh.Set("Content-Type", "application/json")
	pw, err := mw.CreatePart(mh)
	if err != nil {
		return nil, nil, "", err
	}
	if _, err := pw.Write(meta); err != nil {
		return nil, nil, "", err
	}
	// The file part: form-data with the part and file names quoted (a
	// backslash before each backslash and quote), application/octet-stream.
	if _, err := mw.CreateFormFile(in.PartName, in.FileName); err != nil {
		return nil, nil, "", err
	}
	head = bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := mw.Close(); err != nil {
		return nil, nil, "", err
	}
	return head, bytes.Clone(buf.Bytes()), mw.FormDataContentType(), nil
}

// multipartReader is the body of one attempt: the frame's head, the file's
// content and the frame's tail in a row; closing it closes the file.
type multipartReader struct {
	io.Reader
	file io.Closer
}

func (m *multipartReader) Close() error { return m.file.Close() }

// PartHeaderProblem returns what is wrong with a file name or part name
// (the setting name) that the file part's multipart header cannot carry,
// or "" for a good one: CheckPartHeaderValue, the one rule, which the
// upload applies too.
func PartHeaderProblem(name, v string) string {
	if err := CheckPartHeaderValue(v); err != nil {
		return fmt.Sprintf("%s %q %s. It is sent in the header of the upload's file part, which must not be broken.", name, v, err)
	}
	return ""
}

// EncodeText encodes UTF-8 text to the encoding enc: the bytes of a file
// in that encoding, as the service reads it. UTF-16 is little-endian with
// a byte order mark. A character Windows Latin-1 cannot write is an
// *UnencodableError.
func EncodeText(s string, enc flatfile.Encoding) ([]byte, error) {
	switch enc {
	case flatfile.EncodingUTF8:
		return []byte(s), nil
	case flatfile.EncodingUTF16:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	case flatfile.EncodingLatin1:
		out := make([]byte, 0, len(s))
		line, col := 1, 0
		for _, r := range s {
			col++
			b, ok := charmap.Windows1252.EncodeRune(r)
			if !ok {
				return nil, &UnencodableError{Rune: r, Line: line, Column: col}
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

// UnencodableError is a character of text (Rune, on line Line at column
// Column, counted in characters) that the encoding, Windows Latin-1,
// cannot write.
type UnencodableError struct {
	Rune         rune
	Line, Column int
}

// unencodableFix says what to do about an UnencodableError.
const unencodableFix = "use encoding \"UTF-8\" or \"UTF-16\", or remove the character"

func (e *UnencodableError) Error() string {
	return fmt.Sprintf("the character %q (U+%04X) on line %d, column %d cannot be written in Windows Latin-1: "+unencodableFix,
		e.Rune, e.Rune, e.Line, e.Column)
}

// WriteOnly words the error without the character, in any form, for text
// that is a write-only value: where it is, and what to do.
func (e *UnencodableError) WriteOnly() string {
	return fmt.Sprintf("a character on line %d, column %d cannot be written in Windows Latin-1 (the value is write-only, so the character is not shown): "+unencodableFix,
		e.Line, e.Column)
}
