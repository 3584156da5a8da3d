package etl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// DataUpload is the body of start-with-data: Rows[0] is the header row of
// column names, the rest are data rows.
type DataUpload struct {
	Rows [][]string
}

// MaxDataBodyBytes is the service's limit on a start-with-data JSON body.
const MaxDataBodyBytes = 25 << 20

// rowsBufSize is the size of the buffer both rows encoders write through.
const rowsBufSize = 64 << 10

// DataTooLargeError reports that the JSON body of start-with-data would be
// over the service's 25 MB limit (MaxDataBodyBytes); Size is its length.
type DataTooLargeError struct{ Size int64 }

func (e *DataTooLargeError) Error() string {
	return fmt.Sprintf("the rows encode to a %d-byte JSON body, over the service's %d-byte limit for a JSON body: send them as a file instead", e.Size, MaxDataBodyBytes)
}

// newJSONBody encodes the rows once, with WriteTo, into a body that every
// attempt sends as is. It refuses an upload without rows, and a body over
// MaxDataBodyBytes with a *DataTooLargeError.
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

// WriteTo writes exactly the JSON body that StartWithData sends:
// {"input":{"data":[[...],...]}}. It is deterministic, so a hash of it
// identifies the data sent.
func (d DataUpload) WriteTo(w io.Writer) (int64, error) {
	return writeRows(w, func(bw *bufio.Writer) error {
		_, _ = bw.WriteString(`{"input":{"data":[`)
		for i, row := range d.Rows {
			b, err := rowBuffer(bw)
			if err != nil {
				return err
			}
			if i > 0 {
				b = append(b, ',')
			}
			if _, err := bw.Write(appendRow(b, row)); err != nil {
				return err
			}
		}
		_, err := bw.WriteString("]}}")
		return err
	})
}

// Size returns the length of the JSON body WriteTo writes.
func (d DataUpload) Size() int64 {
	n, _ := d.WriteTo(io.Discard)
	return n
}

// writeRows runs encode over a buffered writer in front of w, and returns
// how many bytes reached w. Both rows encoders write through it, so each
// one's size is the count of what it writes, never a separate computation.
// encode stops at the first write error (the buffered writer keeps it).
func writeRows(w io.Writer, encode func(*bufio.Writer) error) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, rowsBufSize)
	err := encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	return cw.n, err
}

// rowSlack is the free buffer space below which rowBuffer flushes first.
const rowSlack = 4 << 10

// rowBuffer returns bw's free space for one row to be appended into and
// then written, flushing first when little is left, so that a row rarely
// outgrows it (and allocates).
func rowBuffer(bw *bufio.Writer) ([]byte, error) {
	if bw.Available() < rowSlack {
		if err := bw.Flush(); err != nil {
			return nil, err
		}
	}
	return bw.AvailableBuffer(), nil
}

// countingWriter counts the bytes w accepts.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// estimate returns a close upper-bound guess of the JSON body's size, to
// allocate its buffer once.
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

// appendRow appends one row as a JSON array of strings.
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

// hexDigits are the lower-case hex digits of a \u00XX escape.
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
