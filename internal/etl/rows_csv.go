package etl

import (
	"bufio"
	"io"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// CSVFileName is the file name CSVFile gives the rows sent as a file.
const CSVFileName = "rows.csv"

// WriteCSV writes the rows as the CSV file CSVFile sends and returns its
// length. It is deterministic, so a hash of it identifies the data sent.
func (d DataUpload) WriteCSV(w io.Writer) (int64, error) {
	return writeRows(w, func(bw *bufio.Writer) error {
		for _, row := range d.Rows {
			b, err := rowBuffer(bw)
			if err != nil {
				return err
			}
			if _, err := bw.Write(appendCSVRow(b, row)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CSVSize returns the length of the CSV file of the rows: what WriteCSV
// writes, counted.
func (d DataUpload) CSVSize() int64 {
	n, _ := d.WriteCSV(io.Discard)
	return n
}

// CSVFile returns the rows as a UTF-8 CSV file upload (part "file", file
// name CSVFileName) for start with file: rows that do not fit start with
// data's 25 MB JSON body are sent this way, with the same header and
// cells. The content is encoded as it is read, never held whole: memory
// stays a small buffer whatever the number of rows.
func (d DataUpload) CSVFile() FileUpload {
	return FileUpload{
		Input: FileInput{PartName: DefaultPartName, FileFormat: flatfile.FormatCSV, FileEncoding: flatfile.EncodingUTF8, FileName: CSVFileName},
		Open:  func() (io.ReadCloser, error) { return &csvRowsReader{rows: d.Rows}, nil },
		Size:  d.CSVSize(),
	}
}

// csvRowsReader encodes rows a buffer at a time as they are read (the pull
// side of WriteCSV: the same rows, the same appendCSVRow).
type csvRowsReader struct {
	rows [][]string
	next int
	buf  []byte
	pos  int
}

func (r *csvRowsReader) Read(p []byte) (int, error) {
	for r.pos >= len(r.buf) {
		if r.next >= len(r.rows) {
			return 0, io.EOF
		}
		if r.buf == nil {
			r.buf = make([]byte, 0, rowsBufSize+1024)
		}
		r.buf, r.pos = r.buf[:0], 0
		for r.next < len(r.rows) && len(r.buf) < rowsBufSize {
			r.buf = appendCSVRow(r.buf, r.rows[r.next])
			r.next++
		}
	}
	n := copy(p, r.buf[r.pos:])
	r.pos += n
	return n, nil
}

func (r *csvRowsReader) Close() error { return nil }

// csvNeedsQuotes reports whether cell s must be quoted: it holds a comma,
// quote, CR or LF, or begins or ends with a space or tab.
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if first, last := s[0], s[len(s)-1]; first == ' ' || first == '\t' || last == ' ' || last == '\t' {
		return true
	}
	return strings.ContainsAny(s, ",\"\r\n")
}

// appendCSVRow appends one row as a CSV record: the one rule for the CSV
// bytes of a row. The CSV is RFC 4180 as encoding/csv reads it: fields are
// separated by commas, the record ends in "\n", and a cell is quoted (with
// quotes doubled) when csvNeedsQuotes says so. A row of one empty cell is
// written as "" so that it is not an empty line, which a reader skips.
func appendCSVRow(dst []byte, row []string) []byte {
	if len(row) == 1 && row[0] == "" {
		// An empty line would be skipped: quote the one empty cell.
		return append(dst, "\"\"\n"...)
	}
	for j, cell := range row {
		if j > 0 {
			dst = append(dst, ',')
		}
		if !csvNeedsQuotes(cell) {
			dst = append(dst, cell...)
			continue
		}
		dst = append(dst, '"')
		for {
			i := strings.IndexByte(cell, '"')
			if i < 0 {
				break
			}
			dst = append(dst, cell[:i+1]...)
			dst = append(dst, '"')
			cell = cell[i+1:]
		}
		dst = append(dst, cell...)
		dst = append(dst, '"')
	}
	return append(dst, '\n')
}
