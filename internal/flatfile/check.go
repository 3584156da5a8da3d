package flatfile

import (
	"bytes"
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

// FileSummary describes what CheckFile checked: how much of the file, and
// its columns, rows and lines.
type FileSummary struct {
	// Bytes is how many bytes of the file were checked, byte order mark
	// included.
	Bytes int64
	// Complete is false when the file is longer than the limit: only its
	// first Bytes bytes were checked, and the record the limit cut was not.
	Complete bool
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
// another format's delimiter splits. It reads the records as the service
// does (recordScanner): blank lines are skipped, a CR before a LF is part
// of the line break, and a CR that ends the file is dropped.
//
// At most limit bytes are checked (limit <= 0: all); the summary says
// whether that was the whole file. The memory used does not grow with the
// file, and nothing is allocated per row.
func CheckFile(r io.Reader, format Format, enc Encoding, limit int64) (*FileSummary, error) {
	if why := unknownTarget(format, enc); why != "" {
		return nil, &FileError{Problem: ProblemArgument, Offset: -1, Detail: why}
	}
	s := newRecordScanner(byte(format.Delimiter())) //nolint:gosec // every format's delimiter is ASCII
	s.check, s.format, s.eightBit = true, format, enc != EncodingUTF16
	c := &checker{enc: enc, limit: limit, sum: &FileSummary{}, s: s}
	err := c.run(r)
	c.sum.Lines = s.line
	if s.state != scanOut || s.rec != recEmpty {
		c.sum.Lines++ // the last line has no line break
	}
	if err == nil && c.sum.Complete {
		err = c.end()
	}
	c.sum.Columns, c.sum.Rows = s.cols, max(s.records-1, 0)
	return c.sum, err
}

// checker holds the state of one CheckFile call: it reads the file, decodes
// it (decode.go) and feeds the scanner.
type checker struct {
	enc     Encoding
	limit   int64
	sum     *FileSummary
	s       *recordScanner
	scratch []byte // the units of UTF-16 fed, or UTF-8 validated

	off     int64 // file offset of buf[0]
	started bool  // the byte order mark has been looked at
	bom     bool  // the file starts with a byte order mark of enc
	little  bool  // UTF-16 little-endian
	any     bool  // a byte past the byte order mark was seen
	// utf16BOM: an 8-bit file starts with a UTF-16 byte order mark.
	utf16BOM bool
}

// checkBufs recycles CheckFile's read buffers and, past them, its scratch
// buffers (plans check many files).
var checkBufs = sync.Pool{New: func() any { return new([2 * checkBufSize]byte) }}

// run reads r into a pooled buffer, at most limit bytes (plus one, to tell
// whether more follows), hands each read to step, and fills in the
// summary's Bytes and Complete; the first problem found ends it.
func (c *checker) run(r io.Reader) error {
	pb, ok := checkBufs.Get().(*[2 * checkBufSize]byte)
	if !ok {
		pb = new([2 * checkBufSize]byte)
	}
	defer checkBufs.Put(pb)
	buf := pb[:checkBufSize]
	c.scratch = pb[checkBufSize:]
	if c.limit > 0 {
		r = io.LimitReader(r, c.limit+1) // a byte past the limit: more follows
	}
	n := 0 // bytes held in buf
	eof := false
	var total int64 // bytes read from r
	for {
		if !eof {
			m, err := r.Read(buf[n:])
			n += m
			total += int64(m)
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return &FileError{Problem: ProblemUnreadable, Offset: -1, Detail: "reading the file failed: " + err.Error(), Err: err}
			}
		}
		cut := c.limit > 0 && total > c.limit
		valid := n
		if cut {
			// Only limit bytes are checked; the record the limit cuts
			// is left unjudged.
			valid = n - int(total-c.limit)
		}
		used, err := c.step(buf[:valid], eof && !cut)
		if err != nil {
			return err
		}
		c.off += int64(used)
		n = copy(buf, buf[used:n])
		if cut {
			c.sum.Bytes = c.limit
			return nil
		}
		if eof {
			break
		}
	}
	c.sum.Bytes = total
	c.sum.Complete = true
	return nil
}

// end ends a file read whole: it refuses an empty one, closes the last
// record (which may lack its line break), and refuses a file without a
// header row.
func (c *checker) end() error {
	if !c.any {
		return &FileError{Problem: ProblemEmpty, Offset: -1, Detail: "the file is empty",
			Fix: "it needs a header row of column names, then the data rows"}
	}
	if c.s.finish(); c.s.err == nil && c.s.records == 0 {
		return &FileError{Problem: ProblemNoHeader, Line: 1, Offset: -1,
			Detail: "the file has no header row", Fix: "the first line must be the header row of column names"}
	}
	return c.s.err
}

// checkContent takes, checking, seg: units of the current record outside
// quotes with no quote and no LF. It counts the record's delimiters and,
// in the header, the other formats' delimiters and NUL bytes.
func (s *recordScanner) checkContent(seg []byte) {
	if s.rec == recEmpty {
		s.recLine = s.line + 1
	}
	s.fields += bytes.Count(seg, []byte{s.delim})
	if s.records == 0 {
		for k, d := range otherDelims {
			s.others[k] += bytes.Count(seg, []byte{d})
		}
		s.nuls += bytes.Count(seg, []byte{0})
	}
}

// checkRecord checks a record of n fields starting on line: the first is
// the header (checked for NUL bytes and, when it has one column, for
// another format's delimiter); each later one must have as many fields.
func (s *recordScanner) checkRecord(n int, line int64) {
	switch {
	case s.records == 1:
		s.cols = n
		if s.nuls > 0 && s.eightBit {
			s.fail(&FileError{Problem: ProblemEncoding, Line: 1, Offset: -1,
				Detail: fmt.Sprintf("line 1: the header holds %d NUL bytes, which text in this encoding does not", s.nuls),
				Fix:    `the file looks like UTF-16: set the encoding to "UTF-16"`})
		} else if n == 1 {
			s.checkHeaderDelimiter()
		}
	case n != s.cols:
		kind := "more"
		if n < s.cols {
			kind = "fewer"
		}
		s.fail(&FileError{Problem: ProblemWidth, Line: line, Offset: -1,
			Detail: fmt.Sprintf("line %d has %s but the header has %d: %s than the header", line, fieldsWord(n), s.cols, fieldsWord(max(n-s.cols, s.cols-n))+" "+kind),
			Fix: fmt.Sprintf("every row needs one field per header column, separated by %s; quote a field that contains the delimiter, a quote or a line break, "+
				"and double the quotes inside it (\"a%cb\" and \"say \"\"hi\"\"\")", delimName(s.delim), s.delim)})
	}
}

// fieldsWord returns n with the noun, for messages: "1 field", "3 fields".
func fieldsWord(n int) string {
	if n == 1 {
		return "1 field"
	}
	return fmt.Sprintf("%d fields", n)
}

// otherDelims are the delimiters counted in the header to tell a file in
// another format (or with ';', which no format uses); recordScanner.others
// counts them in this order.
var otherDelims = [4]byte{',', '|', '\t', ';'}

// delimWords names each of otherDelims in a word.
var delimWords = map[byte]string{',': "comma", '|': "pipe", '\t': "tab", ';': "semicolon"}

// checkHeaderDelimiter fails with a ProblemDelimiter error when the
// one-column header holds another format's delimiter (or ';'), naming the
// one it holds most of: such a file is in that format, not the declared
// one.
func (s *recordScanner) checkHeaderDelimiter() {
	best, k := 0, -1
	for i, n := range s.others {
		if otherDelims[i] != s.delim && n > best {
			best, k = n, i
		}
	}
	if k < 0 {
		return
	}
	d := otherDelims[k]
	e := &FileError{Problem: ProblemDelimiter, Line: 1, Offset: -1}
	for _, f := range Formats {
		if f.Delimiter() == rune(d) {
			e.LooksLike = f
		}
	}
	e.Detail = fmt.Sprintf("the delimiter does not match the format: the header (line 1) has no %s, so it is one column, but it holds %d %s",
		delimName(s.delim), best, delimName(d))
	if e.LooksLike != "" {
		e.Fix = fmt.Sprintf("the file looks like %s (%s separated): set the format to %q, or save the file as %s", e.LooksLike, delimWords[d], e.LooksLike, s.format)
	} else {
		e.Fix = fmt.Sprintf("the service accepts CSV (comma), PSV (pipe) and TDF (tab) files: save the file with one of those delimiters and set the format to match (it is %s now)", s.format)
	}
	s.fail(e)
}

// delimName names delimiter d with the character, for messages, such as
// "comma (,)".
func delimName(d byte) string {
	w, ok := delimWords[d]
	switch {
	case !ok:
		return fmt.Sprintf("%q", d)
	case d == '\t':
		return w
	}
	return w + " (" + string(d) + ")"
}
