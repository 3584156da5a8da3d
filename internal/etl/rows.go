package etl

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// Payload is how rows are sent: the JSON body of start with data (WriteTo)
// while it is at most a limit's bytes, else the UTF-8 CSV file of start
// with file (CSVFile, AsFile). SHA256 is the SHA-256 of the bytes sent
// either way, Size their length and Rows the data rows the service
// imports from them (RowCount); JSONSize is the length of the JSON body.
type Payload struct {
	SHA256     string
	AsFile     bool
	JSONSize   int64
	Size, Rows int64
}

// Payload is how the rows are sent when a JSON body may be at most limit
// bytes: the service's MaxDataBodyBytes (a caller may lower it, as tests
// do to cross it with kilobytes of rows).
func (d DataUpload) Payload(limit int64) Payload {
	sum, size := d.SHA256()
	if size <= limit {
		return Payload{SHA256: sum, JSONSize: size, Size: size, Rows: d.RowCount(false)}
	}
	return Payload{SHA256: d.CSVSHA256(), AsFile: true, JSONSize: size, Size: d.CSVSize(), Rows: d.RowCount(true)}
}

// SHA256 returns the SHA-256 hex digest and the length of the JSON body
// StartWithData sends for the rows (WriteTo).
func (d DataUpload) SHA256() (string, int64) {
	h := sha256.New()
	n, _ := d.WriteTo(h)
	return hex.EncodeToString(h.Sum(nil)), n
}

// CSVSHA256 returns the SHA-256 hex digest of the CSV file the rows are
// sent as (WriteCSV).
func (d DataUpload) CSVSHA256() string {
	h := sha256.New()
	_, _ = d.WriteCSV(h)
	return hex.EncodeToString(h.Sum(nil))
}

// RowCount returns how many data rows the service imports from d: the rows
// after the header row. Sent as a CSV file (asCSV: CSVFile), a row of no
// cells is an empty line, which the service skips; sent as JSON
// (StartWithData), every row counts.
func (d DataUpload) RowCount(asCSV bool) int64 {
	if len(d.Rows) < 2 {
		return 0
	}
	n := int64(len(d.Rows) - 1)
	if asCSV {
		for _, row := range d.Rows[1:] {
			if len(row) == 0 {
				n--
			}
		}
	}
	return n
}

// Columns returns the header row's cells, d.Rows[0]; empty when there are
// no rows.
func (d DataUpload) Columns() []string {
	if len(d.Rows) == 0 {
		return []string{}
	}
	return d.Rows[0]
}

// CRLFCell is where FindCRLF found a cell holding a CR LF ("\r\n"): the
// first such cell, row by row (the header row is rows[0]), and how many
// cells hold one. Such a cell imports as it is when the rows are sent as
// the JSON body of start with data, but a CSV reader, the service's
// included, reads a CR LF inside a quoted cell as LF ("\n") when the same
// rows are sent as a CSV file (CSVFile, for rows over MaxDataBodyBytes) or
// encoded by WriteCSV: the value imported then depends on the rows' size.
type CRLFCell struct {
	Row, Cell int // rows[Row][Cell]
	Count     int // cells holding a CR LF, this one included
}

// FindCRLF returns the first cell of rows that holds a CR LF, and how many
// do; false when none does. A lone CR or LF is not one: a CSV reader keeps
// it.
func FindCRLF(rows [][]string) (CRLFCell, bool) {
	found := CRLFCell{Row: -1, Cell: -1}
	for i, row := range rows {
		for j, cell := range row {
			if !strings.Contains(cell, "\r\n") {
				continue
			}
			if found.Count == 0 {
				found.Row, found.Cell = i, j
			}
			found.Count++
		}
	}
	return found, found.Count > 0
}

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

// RowsProblemKind names the kind of problem CheckRows found.
type RowsProblemKind string

// The problems CheckRows reports.
const (
	// RowsEmpty means there are no rows at all.
	RowsEmpty RowsProblemKind = "empty"
	// RowsEmptyHeader means the header row has no cells.
	RowsEmptyHeader RowsProblemKind = "empty header"
	// RowsEmptyColumnName means a header cell is "" or only spaces and
	// tabs.
	RowsEmptyColumnName RowsProblemKind = "empty column name"
	// RowsWidth means a data row has more or fewer cells than the header.
	RowsWidth RowsProblemKind = "width"
	// RowsMore means there are more problems than were listed.
	RowsMore RowsProblemKind = "more"
)

// RowsProblem is one problem with the rows of a start with data: Row and
// Cell locate it (Cell -1: the whole row; Row -1: the rows as a whole).
type RowsProblem struct {
	Kind      RowsProblemKind
	Row, Cell int
	Want, Got int // the header's and the row's cell counts (RowsWidth)
	Message   string
}

// CheckRows checks rows for start with data: a header row of column
// names first, each name not blank, then data rows with one cell per
// column. Messages call the rows name, such as rows (rows[2], the header
// row rows[0]). A nil row is skipped (its value is not known yet); a nil
// header row skips the whole check. At most maxProblems problems are
// listed (maxProblems <= 0: 10), then one RowsMore.
func CheckRows(name string, rows [][]string, maxProblems int) []RowsProblem {
	if maxProblems <= 0 {
		maxProblems = 10
	}
	if len(rows) == 0 {
		return []RowsProblem{{Kind: RowsEmpty, Row: -1, Cell: -1,
			Message: name + ` is empty: the first row must be the header row of column names, followed by the data rows, for example [["Account", "Amount"], ["4000", "100"]]`}}
	}
	header := rows[0]
	if header == nil {
		return nil
	}
	if len(header) == 0 {
		return []RowsProblem{{Kind: RowsEmptyHeader, Row: 0, Cell: -1,
			Message: `the header row (` + name + `[0]) has no column names: the first row must name the template's columns, for example ["Account", "Amount"]`}}
	}
	var out []RowsProblem
	add := func(p RowsProblem) bool {
		if len(out) == maxProblems {
			out = append(out, RowsProblem{Kind: RowsMore, Row: -1, Cell: -1,
				Message: fmt.Sprintf("further rows have problems too; only the first %d are listed", maxProblems)})
			return false
		}
		out = append(out, p)
		return true
	}
	for j, col := range header {
		if isBlank(col) {
			if !add(RowsProblem{Kind: RowsEmptyColumnName, Row: 0, Cell: j,
				Message: fmt.Sprintf("column %d of the header row (%s[0][%d]) has no name: every column needs the name of a template column", j+1, name, j)}) {
				return out
			}
		}
	}
	for i := 1; i < len(rows); i++ {
		r := rows[i]
		if r == nil || len(r) == len(header) {
			continue
		}
		if !add(RowsProblem{Kind: RowsWidth, Row: i, Cell: -1, Want: len(header), Got: len(r),
			Message: fmt.Sprintf(`%[1]s[%[2]d] has %[3]d cells but the header row (%[1]s[0]) has %[4]d: every row must have one cell per column (use "" for an empty cell)`, name, i, len(r), len(header))}) {
			return out
		}
	}
	return out
}

// isBlank reports whether s is empty or only spaces and tabs.
func isBlank(s string) bool { return strings.Trim(s, " \t") == "" }

// CheckTable returns what is wrong with rows (called name) as a table, in
// CheckRows's words: no rows, a header row with no cells, or rows whose
// width differs from the header row's (the first named, the others
// counted); "" when they form one. A blank column name is no problem
// here: the rows are not checked against a template.
func CheckTable(name string, rows [][]string) string {
	if len(rows) == 0 || len(rows[0]) == 0 {
		// RowsEmpty or RowsEmptyHeader: the only problem listed (CheckRows
		// skips a nil header row as not yet known).
		if ps := CheckRows(name, rows, 1); len(ps) > 0 {
			return ps[0].Message
		}
		return "the header row (" + name + "[0]) has no cells"
	}
	// Room for every problem, so that none is cut off by RowsMore: at most
	// one per header cell and one per data row.
	var first string
	var more int
	for _, p := range CheckRows(name, rows, len(rows[0])+len(rows)) {
		if p.Kind != RowsWidth {
			continue
		}
		if first == "" {
			first = p.Message
		} else {
			more++
		}
	}
	switch more {
	case 0:
		return first
	case 1:
		return first + "; 1 more row has a different number of cells too"
	default:
		return fmt.Sprintf("%s; %d more rows have a different number of cells too", first, more)
	}
}
