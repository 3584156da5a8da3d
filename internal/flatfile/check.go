package flatfile

import (
	"fmt"
	"io"
	"sync"
)

// FileProblem names the kind of problem CheckFile found.
type FileProblem string

// The problems CheckFile reports.
const (
	// ProblemUnreadable means reading the file failed.
	ProblemUnreadable FileProblem = "unreadable"
	// ProblemEncoding means bytes are not valid in the declared encoding.
	ProblemEncoding FileProblem = "encoding"
	// ProblemEmpty means the file has no bytes (a byte order mark alone
	// counts as none).
	ProblemEmpty FileProblem = "empty"
	// ProblemNoHeader means the first line, where the header belongs, is
	// empty, or the file has no line at all.
	ProblemNoHeader FileProblem = "no header"
	// ProblemWidth means a row has more or fewer fields than the header.
	ProblemWidth FileProblem = "width"
	// ProblemQuote means RFC 4180 quoting is broken.
	ProblemQuote FileProblem = "quote"
	// ProblemDelimiter means another format's delimiter splits the
	// one-column header.
	ProblemDelimiter FileProblem = "delimiter"
	// ProblemArgument means the format or the encoding asked for is
	// unknown.
	ProblemArgument FileProblem = "bad request"
)

// FileError is the first problem CheckFile found in a flat file. Detail
// says what is wrong (with the line), Fix what to do about it.
type FileError struct {
	Problem FileProblem
	// Line is the 1-based line of the problem (for a row, the line its
	// record starts on); 0 when the problem is not about a line.
	Line int64
	// Offset is the byte offset in the file of an encoding problem; -1
	// otherwise.
	Offset int64
	// Want and Got are the header's and the row's field counts (ProblemWidth).
	Want, Got int
	// LooksLike is the format the header suggests (ProblemDelimiter); ""
	// when the delimiter found is one no format uses (such as ';').
	LooksLike Format
	Detail    string
	Fix       string
	Err       error // the read error (ProblemUnreadable)
}

func (e *FileError) Error() string {
	if e.Fix == "" {
		return e.Detail
	}
	return e.Detail + ": " + e.Fix
}

func (e *FileError) Unwrap() error { return e.Err }

// FileSummary describes what CheckFile checked: how much of the file, its
// byte order mark and byte order, and its columns, rows and lines.
type FileSummary struct {
	// Bytes is how many bytes of the file were checked, byte order mark
	// included.
	Bytes int64
	// Complete is false when the file is longer than the limit: only its
	// first Bytes bytes were checked, and the record the limit cut was not.
	Complete bool
	// BOM reports a byte order mark at the start; BigEndian the byte order
	// of a UTF-16 file (from its byte order mark, else big-endian).
	BOM, BigEndian bool
	// Columns is the header's field count; Rows the data records checked
	// (blank lines are skipped, as the service does); Lines the lines read.
	Columns int
	Rows    int64
	Lines   int64
}

// checkBufSize is the size of CheckFile's read buffer.
const checkBufSize = 256 << 10

// CheckFile reads a delimited flat file from r, streaming, and reports its
// first problem as a *FileError: bytes that do not decode in enc (UTF-8
// with an optional byte order mark; UTF-16 with a byte order mark of either
// order, big-endian without; Windows Latin-1, that is Windows-1252), an
// empty file, an empty first line where the header belongs, a row with more
// or fewer fields than the header, broken RFC 4180 quoting, or a header that
// another format's delimiter splits. Blank lines are skipped, and a CR
// before a LF is part of the line break, as the service parses files.
//
// At most limit bytes are checked (limit <= 0: all); the summary says
// whether that was the whole file. The memory used does not grow with the
// file, and nothing is allocated per row.
func CheckFile(r io.Reader, format Format, enc Encoding, limit int64) (*FileSummary, error) {
	delim := format.Delimiter()
	if delim == 0 {
		return nil, &FileError{Problem: ProblemArgument, Offset: -1, Detail: fmt.Sprintf("format %q is not one of CSV, PSV, TDF", format)}
	}
	c := &checker{enc: enc, limit: limit, sum: &FileSummary{}}
	c.p.init(byte(delim), format) //nolint:gosec // every format's delimiter is ASCII
	c.p.eightBit = enc != EncodingUTF16
	switch enc {
	case EncodingUTF8, EncodingLatin1:
	case EncodingUTF16:
		c.mapped = make([]byte, checkBufSize/2+8)
		c.sum.BigEndian = true
	default:
		return nil, &FileError{Problem: ProblemArgument, Offset: -1, Detail: fmt.Sprintf("encoding %q is not one of UTF-8, UTF-16, Windows Latin-1", enc)}
	}
	err := c.run(r)
	c.sum.Columns = c.p.cols
	c.sum.Rows = c.p.rows
	c.sum.Lines = c.p.line
	if !c.p.atLineStart {
		c.sum.Lines++ // the last line has no line break
	}
	if err != nil {
		return c.sum, err
	}
	return c.sum, nil
}

// checker holds the state of one CheckFile call: it reads the file, decodes
// it (decode.go) and feeds the parser (parse.go).
type checker struct {
	enc    Encoding
	limit  int64
	sum    *FileSummary
	p      parser
	mapped []byte // UTF-16: one byte per code unit (ASCII, or 0x80 for any other)

	off     int64 // file offset of buf[0]
	started bool  // the byte order mark has been looked at
	little  bool  // UTF-16 little-endian
	any     bool  // a byte past the byte order mark was seen
	// utf16BOM: an 8-bit file starts with a UTF-16 byte order mark.
	utf16BOM bool
}

// checkBufs recycles CheckFile's read buffers (plans check many files).
var checkBufs = sync.Pool{New: func() any { return new([checkBufSize]byte) }}

// run reads r into a pooled buffer, at most limit bytes (plus one, to tell
// whether more follows), hands each read to step, and fills in the
// summary's Bytes and Complete; the first problem found ends it.
func (c *checker) run(r io.Reader) error {
	pb, ok := checkBufs.Get().(*[checkBufSize]byte)
	if !ok {
		pb = new([checkBufSize]byte)
	}
	defer checkBufs.Put(pb)
	buf := pb[:]
	n := 0 // bytes held in buf
	eof := false
	var total int64 // bytes read from r
	for {
		for !eof && n < len(buf) {
			want := len(buf) - n
			if c.limit > 0 {
				// Read one byte past the limit, to know whether more follows.
				want = int(min(int64(want), c.limit+1-total))
				if want <= 0 {
					break
				}
			}
			m, err := r.Read(buf[n : n+want])
			n += m
			total += int64(m)
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return &FileError{Problem: ProblemUnreadable, Offset: -1, Detail: "reading the file failed: " + err.Error(), Err: err}
			}
			if m > 0 {
				break
			}
		}
		cut := c.limit > 0 && total > c.limit
		valid := n
		if cut {
			// Only limit bytes are checked; the record the limit cuts
			// is left unjudged.
			valid = n - int(total-c.limit)
		}
		final := eof && !cut
		used, err := c.step(buf[:valid], final)
		if err != nil {
			return err
		}
		c.off += int64(used)
		n = copy(buf, buf[used:n])
		if cut {
			c.sum.Bytes = c.limit
			return nil
		}
		if final {
			break
		}
	}
	c.sum.Bytes = total
	c.sum.Complete = true
	if !c.any {
		return &FileError{Problem: ProblemEmpty, Offset: -1, Detail: "the file is empty",
			Fix: "it needs a header row of column names, then the data rows"}
	}
	return c.p.finish()
}
