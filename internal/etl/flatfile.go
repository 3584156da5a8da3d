package etl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// FileProblem names the kind of problem CheckFile found.
type FileProblem string

// The problems CheckFile reports.
const (
	ProblemUnreadable FileProblem = "unreadable"  // reading failed
	ProblemEncoding   FileProblem = "encoding"    // bytes not valid in the declared encoding
	ProblemEmpty      FileProblem = "empty"       // no bytes (a byte order mark alone counts as none)
	ProblemNoHeader   FileProblem = "no header"   // the first line is empty
	ProblemWidth      FileProblem = "width"       // a row wider or narrower than the header
	ProblemQuote      FileProblem = "quote"       // RFC 4180 quoting broken
	ProblemDelimiter  FileProblem = "delimiter"   // the header is split by another format's delimiter
	ProblemArgument   FileProblem = "bad request" // unknown format or encoding
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
	LooksLike FileFormat
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

// FileSummary describes what CheckFile checked.
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

// win1252Undefined marks the five bytes Windows-1252 leaves undefined
// (0x81, 0x8D, 0x8F, 0x90, 0x9D).
var win1252Undefined = func() (t [256]bool) {
	for c := 0x80; c < 0x100; c++ {
		if charmap.Windows1252.DecodeByte(byte(c)) == utf8.RuneError {
			t[c] = true
		}
	}
	return t
}()

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
func CheckFile(r io.Reader, format FileFormat, enc Encoding, limit int64) (*FileSummary, error) {
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

// checker drives the decoding of one file into its parser.
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

// step checks b (final: nothing follows) and returns how many bytes it
// consumed; the rest (an incomplete character, a CR whose LF may follow)
// is offered again with more bytes.
func (c *checker) step(b []byte, final bool) (int, error) {
	start := 0
	if !c.started {
		bom := utf8BOMBytes
		if c.enc == EncodingUTF16 {
			if len(b) < 2 && !final {
				return 0, nil
			}
			c.started = true
			if len(b) >= 2 {
				switch {
				case b[0] == 0xFE && b[1] == 0xFF:
					c.sum.BOM, start = true, 2
				case b[0] == 0xFF && b[1] == 0xFE:
					c.sum.BOM, c.sum.BigEndian, c.little, start = true, false, true, 2
				}
			}
		} else {
			if len(b) < 3 && !final {
				return 0, nil
			}
			c.started = true
			c.utf16BOM = len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF)
			if c.enc == EncodingUTF8 && bytes.HasPrefix(b, bom) {
				c.sum.BOM, start = true, 3
			} else if c.enc == EncodingLatin1 && bytes.HasPrefix(b, bom) {
				return 0, c.encodingError(0, 0, "the file starts with a UTF-8 byte order mark but is declared Windows Latin-1",
					`the file is UTF-8: set the encoding to "UTF-8"`)
			}
		}
	}
	if start < len(b) {
		c.any = true
	}
	if c.enc == EncodingUTF16 {
		used, err := c.stepUTF16(b[start:], final, c.off+int64(start))
		return start + used, err
	}
	body := b[start:]
	end := len(body)
	if !final && c.enc == EncodingUTF8 {
		end -= incompleteUTF8Tail(body)
	}
	chunk := body[:end]
	bad := -1
	if c.enc == EncodingUTF8 {
		if !utf8.Valid(chunk) {
			bad = firstInvalidUTF8(chunk)
		}
	} else {
		bad = firstUndefined1252(chunk)
	}
	if bad >= 0 {
		if err := c.p.feed(chunk[:bad], false); err != nil {
			return 0, err
		}
		if c.enc == EncodingUTF8 {
			fix := `the file is probably Windows Latin-1: set the encoding to "Windows Latin-1", or save the file as UTF-8`
			if c.utf16BOM && c.off+int64(bad) == 0 {
				fix = `the file starts with a UTF-16 byte order mark: set the encoding to "UTF-16"`
			}
			return 0, c.encodingError(c.off+int64(start+bad), chunk[bad], "invalid UTF-8", fix)
		}
		return 0, c.encodingError(c.off+int64(start+bad), chunk[bad],
			"undefined in Windows Latin-1 (Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined)",
			`the file is probably in another encoding: declare it ("UTF-8" or "UTF-16"), or save the file as Windows Latin-1`)
	}
	if err := c.p.feed(chunk, final && end == len(body)); err != nil {
		return 0, err
	}
	return start + end, nil
}

func (c *checker) encodingError(off int64, b byte, what, fix string) *FileError {
	line := c.p.line + 1
	detail := fmt.Sprintf("line %d: byte 0x%02X at offset %d is %s", line, b, off, what)
	if off == 0 && b == 0 {
		detail = fmt.Sprintf("line %d: %s", line, what)
	}
	return &FileError{Problem: ProblemEncoding, Line: line, Offset: off, Detail: detail, Fix: fix}
}

// stepUTF16 validates UTF-16 code units and feeds the parser one byte per
// unit: the unit itself when it is ASCII, else 0x80 (never a delimiter,
// quote or line break). base is the file offset of b[0].
func (c *checker) stepUTF16(b []byte, final bool, base int64) (int, error) {
	out := c.mapped[:0]
	i := 0
	little := c.little
	unit := func(k int) uint16 {
		if little {
			return uint16(b[k]) | uint16(b[k+1])<<8
		}
		return binary.BigEndian.Uint16(b[k:])
	}
	fail := func(at int, what string) (int, error) {
		if err := c.p.feed(out, false); err != nil {
			return 0, err
		}
		line := c.p.line + 1
		fix := `save the file as UTF-16, or declare the encoding it is in ("UTF-8" or "Windows Latin-1")`
		if !c.sum.BOM {
			fix = `the file has no UTF-16 byte order mark (so big-endian is assumed) and may be UTF-8 or Windows Latin-1: declare that encoding, or save the file as UTF-16 with a byte order mark`
		}
		off := base + int64(at)
		return 0, &FileError{Problem: ProblemEncoding, Line: line, Offset: off,
			Detail: fmt.Sprintf("line %d: the bytes at offset %d are %s", line, off, what), Fix: fix}
	}
loop:
	for i+1 < len(b) {
		u := unit(i)
		switch {
		case u < 0x80:
			out = append(out, byte(u))
			i += 2
		case u >= 0xD800 && u < 0xDC00:
			if i+3 >= len(b) {
				if final {
					return fail(i, "a high surrogate with no low surrogate after it (invalid UTF-16)")
				}
				break loop
			}
			if u2 := unit(i + 2); u2 < 0xDC00 || u2 > 0xDFFF {
				return fail(i, "a high surrogate with no low surrogate after it (invalid UTF-16)")
			}
			out = append(out, 0x80)
			i += 4
		case u >= 0xDC00 && u <= 0xDFFF:
			return fail(i, "a low surrogate with no high surrogate before it (invalid UTF-16)")
		default:
			out = append(out, 0x80)
			i += 2
		}
	}
	if final && i < len(b) {
		return fail(i, "a lone last byte: the file has an odd number of bytes (invalid UTF-16)")
	}
	if err := c.p.feed(out, final); err != nil {
		return 0, err
	}
	return i, nil
}

var utf8BOMBytes = []byte{0xEF, 0xBB, 0xBF}

// incompleteUTF8Tail returns how many bytes at the end of b start a UTF-8
// sequence that continues past b.
func incompleteUTF8Tail(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < 0x80 {
			return 0
		}
		if c >= 0xC0 {
			need := 2
			if c >= 0xF0 {
				need = 4
			} else if c >= 0xE0 {
				need = 3
			}
			if len(b)-i < need {
				return len(b) - i
			}
			return 0
		}
	}
	return 0
}

// firstInvalidUTF8 returns the offset of the first invalid byte of b, which
// utf8.Valid has rejected.
func firstInvalidUTF8(b []byte) int {
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// firstUndefined1252 returns the offset of the first byte Windows-1252
// leaves undefined, or -1. Eight bytes at a time while they are ASCII.
func firstUndefined1252(b []byte) int {
	i := 0
	for i+8 <= len(b) {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			continue
		}
		for k := i; k < i+8; k++ {
			if win1252Undefined[b[k]] {
				return k
			}
		}
		i += 8
	}
	for ; i < len(b); i++ {
		if win1252Undefined[b[i]] {
			return i
		}
	}
	return -1
}

// Parser states.
const (
	stRecordStart   = iota // at the start of a record (a line)
	stFieldStart           // after a delimiter
	stUnquoted             // inside an unquoted field
	stQuoted               // inside a quoted field
	stQuoteInQuoted        // a quote inside a quoted field: closing, or the first of a pair
)

// parser counts the fields of RFC 4180 records (encoding/csv semantics:
// no lazy quotes, blank lines skipped, CRLF or LF) over ASCII-compatible
// bytes. Only the delimiter, '"', '\r' and '\n' matter; every other byte is
// field content.
type parser struct {
	delim  byte
	format FileFormat

	state   int
	fields  int   // fields completed in the current record
	line    int64 // line breaks seen so far (the current line is line+1)
	recLine int64 // the line the current record starts on
	cols    int   // the header's field count; 0 before the header
	rows    int64 // data records
	header  bool  // the header has been read
	// atLineStart: nothing of the current line seen yet.
	atLineStart bool
	quoteLine   int64 // the line a quoted field opened on
	// pendingCR: b ended with a CR outside quotes; whether it is part of
	// a CRLF depends on the next byte.
	pendingCR bool

	// Unquoted delimiters of the other formats (and ';') in the header.
	others [4]int
	// nuls counts NUL bytes in the header; with eightBit, they mean the
	// file is UTF-16 read as 8-bit text.
	nuls     int
	eightBit bool
}

var otherDelims = [4]byte{',', '|', '\t', ';'}

func (p *parser) init(delim byte, format FileFormat) {
	p.delim, p.format, p.state, p.atLineStart = delim, format, stRecordStart, true
}

// feed parses b. final: b ends the file (a CR at its end is content).
func (p *parser) feed(b []byte, final bool) error {
	if p.pendingCR {
		if len(b) == 0 && !final {
			return nil
		}
		p.pendingCR = false
		if len(b) == 0 || b[0] != '\n' {
			if err := p.crContent(); err != nil {
				return err
			}
		}
	}
	i := 0
	for i < len(b) {
		if p.state == stRecordStart && p.header {
			// Fast path: a whole line without quotes.
			nl := bytes.IndexByte(b[i:], '\n')
			if nl >= 0 {
				ln := b[i : i+nl]
				if bytes.IndexByte(ln, '"') < 0 {
					p.line++
					if len(ln) > 0 && ln[len(ln)-1] == '\r' {
						ln = ln[:len(ln)-1]
					}
					if len(ln) > 0 {
						if err := p.record(bytes.Count(ln, []byte{p.delim})+1, p.line); err != nil {
							return err
						}
					}
					i += nl + 1
					p.atLineStart = true
					continue
				}
			}
		}
		// Slow path: one byte at a time until the record ends.
		n, err := p.slow(b[i:], final)
		i += n
		if err != nil {
			return err
		}
	}
	return nil
}

// slow parses bytes one at a time, returning after a record ends (so that
// the fast path can take the next line) or at the end of b.
func (p *parser) slow(b []byte, final bool) (int, error) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if p.atLineStart {
			p.atLineStart = false
			if p.state == stRecordStart {
				p.recLine = p.line + 1
			}
		}
		if c == '\n' {
			p.line++
			p.atLineStart = true
		}
		switch p.state {
		case stRecordStart, stFieldStart, stUnquoted:
			switch c {
			case p.delim:
				p.fields++
				p.state = stFieldStart
			case '\n':
				if p.state == stRecordStart {
					if !p.header {
						return i + 1, &FileError{Problem: ProblemNoHeader, Line: p.line, Offset: -1,
							Detail: "line 1 is empty: the first line must be the header row of column names",
							Fix:    "remove the empty line(s) before the header"}
					}
					continue // a blank line: skipped
				}
				return i + 1, p.endRecord()
			case '\r':
				if i+1 < len(b) && b[i+1] == '\n' {
					continue // part of the line break
				}
				if i+1 == len(b) && !final {
					p.pendingCR = true // the next feed tells
					return len(b), nil
				}
				p.state = stUnquoted
			case '"':
				if p.state == stUnquoted {
					return i + 1, p.quoteError("a quote (\") inside an unquoted field", p.line+1)
				}
				p.state = stQuoted
				p.quoteLine = p.line + 1
			default:
				if !p.header {
					for k, d := range otherDelims {
						if c == d {
							p.others[k]++
						}
					}
					if c == 0 {
						p.nuls++
					}
				}
				p.state = stUnquoted
			}
		case stQuoted:
			if c == '"' {
				p.state = stQuoteInQuoted
			}
		case stQuoteInQuoted:
			switch c {
			case '"':
				p.state = stQuoted
			case p.delim:
				p.fields++
				p.state = stFieldStart
			case '\n':
				return i + 1, p.endRecord()
			case '\r':
				if i+1 < len(b) && b[i+1] == '\n' {
					continue
				}
				if i+1 == len(b) && !final {
					p.pendingCR = true
					return len(b), nil
				}
				return i + 1, p.quoteError("a character other than the delimiter or a line break after the closing quote of a quoted field", p.line+1)
			default:
				return i + 1, p.quoteError("a character other than the delimiter or a line break after the closing quote of a quoted field", p.line+1)
			}
		}
	}
	return len(b), nil
}

// crContent applies a CR that turned out not to precede a LF: content of
// an unquoted field, or junk after a closing quote.
func (p *parser) crContent() error {
	switch p.state {
	case stRecordStart, stFieldStart:
		p.state = stUnquoted
	case stQuoteInQuoted:
		return p.quoteError("a character other than the delimiter or a line break after the closing quote of a quoted field", p.line+1)
	}
	return nil
}

// endRecord completes the current record.
func (p *parser) endRecord() error {
	p.state = stRecordStart
	n := p.fields + 1
	p.fields = 0
	return p.record(n, p.recLine)
}

// record takes a complete record of n fields starting on line.
func (p *parser) record(n int, line int64) error {
	if !p.header {
		p.header = true
		p.cols = n
		if p.nuls > 0 && p.eightBit {
			return &FileError{Problem: ProblemEncoding, Line: 1, Offset: -1,
				Detail: fmt.Sprintf("line 1: the header holds %d NUL bytes, which text in this encoding does not", p.nuls),
				Fix:    `the file looks like UTF-16: set the encoding to "UTF-16"`}
		}
		if n == 1 {
			return p.checkHeaderDelimiter()
		}
		return nil
	}
	p.rows++
	if n != p.cols {
		kind := "more"
		if n < p.cols {
			kind = "fewer"
		}
		return &FileError{Problem: ProblemWidth, Line: line, Offset: -1, Want: p.cols, Got: n,
			Detail: fmt.Sprintf("line %d has %s but the header has %d: %s than the header", line, fieldsWord(n), p.cols, fieldsWord(absDiff(n, p.cols))+" "+kind),
			Fix: fmt.Sprintf("every row needs one field per header column, separated by %s; quote a field that contains the delimiter, a quote or a line break, "+
				"and double the quotes inside it (\"a%cb\" and \"say \"\"hi\"\"\")", delimName(p.delim), p.delim)}
	}
	return nil
}

func fieldsWord(n int) string {
	if n == 1 {
		return "1 field"
	}
	return fmt.Sprintf("%d fields", n)
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// checkHeaderDelimiter: a one-column header that holds another format's
// delimiter is a file in that format.
func (p *parser) checkHeaderDelimiter() error {
	best, k := 0, -1
	for i, n := range p.others {
		if otherDelims[i] != p.delim && n > best {
			best, k = n, i
		}
	}
	if k < 0 {
		return nil
	}
	d := otherDelims[k]
	e := &FileError{Problem: ProblemDelimiter, Line: 1, Offset: -1}
	switch d {
	case ',':
		e.LooksLike = FormatCSV
	case '|':
		e.LooksLike = FormatPSV
	case '\t':
		e.LooksLike = FormatTDF
	}
	e.Detail = fmt.Sprintf("the delimiter does not match the format: the header (line 1) has no %s, so it is one column, but it holds %d %s",
		delimName(p.delim), best, delimName(d))
	if e.LooksLike != "" {
		e.Fix = fmt.Sprintf("the file looks like %s (%s separated): set the format to %q, or save the file as %s", e.LooksLike, delimWord(d), e.LooksLike, p.format)
	} else {
		e.Fix = fmt.Sprintf("the service accepts CSV (comma), PSV (pipe) and TDF (tab) files: save the file with one of those delimiters and set the format to match (it is %s now)", p.format)
	}
	return e
}

func delimName(d byte) string {
	switch d {
	case ',':
		return "comma (,)"
	case '|':
		return "pipe (|)"
	case '\t':
		return "tab"
	case ';':
		return "semicolon (;)"
	}
	return fmt.Sprintf("%q", d)
}

func delimWord(d byte) string {
	switch d {
	case ',':
		return "comma"
	case '|':
		return "pipe"
	case '\t':
		return "tab"
	}
	return string(d)
}

func (p *parser) quoteError(what string, line int64) error {
	return &FileError{Problem: ProblemQuote, Line: line, Offset: -1,
		Detail: fmt.Sprintf("line %d: %s", line, what),
		Fix:    "a field that contains a quote must be enclosed in quotes, with each quote inside it doubled, such as \"say \"\"hi\"\"\"; nothing may follow the closing quote but the delimiter or the line break"}
}

// finish ends the file: the last record may lack its line break.
func (p *parser) finish() error {
	if p.pendingCR {
		p.pendingCR = false
		if err := p.crContent(); err != nil {
			return err
		}
	}
	switch p.state {
	case stQuoted:
		return &FileError{Problem: ProblemQuote, Line: p.quoteLine, Offset: -1,
			Detail: fmt.Sprintf("line %d: a quoted field is never closed (the file ends inside it)", p.quoteLine),
			Fix:    "close the quoted field with a quote, and double every quote inside it"}
	case stRecordStart:
		if !p.header {
			return &FileError{Problem: ProblemNoHeader, Line: 1, Offset: -1,
				Detail: "the file has no header row", Fix: "the first line must be the header row of column names"}
		}
		return nil
	}
	return p.endRecord()
}
