package flatfile

import (
	"bytes"
	"fmt"
)

// The states of parser.state.
const (
	// stRecordStart is the state at the start of a record (a line).
	stRecordStart = iota
	// stFieldStart is the state after a delimiter.
	stFieldStart
	// stUnquoted is the state inside an unquoted field.
	stUnquoted
	// stQuoted is the state inside a quoted field.
	stQuoted
	// stQuoteInQuoted is the state after a quote inside a quoted field:
	// the closing quote, or the first of a doubled pair.
	stQuoteInQuoted
)

// parser is the parsing half of CheckFile: it checks RFC 4180 quoting, the
// header and the width of every record over the ASCII-compatible bytes the
// decoding half (decode.go) hands over. It counts the fields of
// each record with encoding/csv's semantics (no lazy quotes, blank lines
// skipped, CRLF or LF). Only the delimiter, '"', '\r' and '\n' matter;
// every other byte is field content.
type parser struct {
	delim  byte
	format Format

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

// init readies p for a file in format, whose delimiter is delim.
func (p *parser) init(delim byte, format Format) {
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
			if err := p.applyPendingCR(); err != nil {
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
		var n int
		var stop bool
		var err error
		switch p.state {
		case stRecordStart, stFieldStart, stUnquoted:
			n, stop, err = p.unquotedByte(b, i, final)
		case stQuoted:
			if c == '"' {
				p.state = stQuoteInQuoted
			}
		case stQuoteInQuoted:
			n, stop, err = p.afterQuoteByte(b, i, final)
		}
		if stop {
			return n, err
		}
	}
	return len(b), nil
}

// unquotedByte takes b[i] outside a quoted field. stop: slow returns n
// (and err) now.
func (p *parser) unquotedByte(b []byte, i int, final bool) (n int, stop bool, err error) {
	switch c := b[i]; c {
	case p.delim:
		p.fields++
		p.state = stFieldStart
	case '\n':
		if p.state != stRecordStart {
			return i + 1, true, p.endRecord()
		}
		if !p.header {
			return i + 1, true, &FileError{Problem: ProblemNoHeader, Line: p.line, Offset: -1,
				Detail: "line 1 is empty: the first line must be the header row of column names",
				Fix:    "remove the empty line(s) before the header"}
		}
		// A blank line: skipped.
	case '\r':
		switch p.lineBreakCR(b, i, final) {
		case crBreak:
		case crPending:
			return len(b), true, nil
		default:
			p.state = stUnquoted
		}
	case '"':
		if p.state == stUnquoted {
			return i + 1, true, p.quoteError("a quote (\") inside an unquoted field", p.line+1)
		}
		p.state = stQuoted
		p.quoteLine = p.line + 1
	default:
		if !p.header {
			p.countHeaderByte(c)
		}
		p.state = stUnquoted
	}
	return 0, false, nil
}

// afterQuoteByte takes b[i] after a quote inside a quoted field: a second
// quote (an escaped one), or what may follow a closing quote.
func (p *parser) afterQuoteByte(b []byte, i int, final bool) (n int, stop bool, err error) {
	switch b[i] {
	case '"':
		p.state = stQuoted
	case p.delim:
		p.fields++
		p.state = stFieldStart
	case '\n':
		return i + 1, true, p.endRecord()
	case '\r':
		switch p.lineBreakCR(b, i, final) {
		case crBreak:
		case crPending:
			return len(b), true, nil
		default:
			return i + 1, true, p.quoteError(afterClosingQuote, p.line+1)
		}
	default:
		return i + 1, true, p.quoteError(afterClosingQuote, p.line+1)
	}
	return 0, false, nil
}

// afterClosingQuote is the problem of anything else after a closing quote.
const afterClosingQuote = "a character other than the delimiter or a line break after the closing quote of a quoted field"

// What lineBreakCR finds a CR at b[i] to be.
const (
	// crContent is a CR not before a LF: field content (or junk after a
	// closing quote).
	crContent = iota
	// crBreak is a CR that is the first half of a CRLF line break.
	crBreak
	// crPending is a CR that ends b (which is not final): the next feed
	// tells which it is (p.pendingCR).
	crPending
)

// lineBreakCR tells what the CR at b[i] is (crContent, crBreak or
// crPending), setting p.pendingCR when b ends with it and more follows.
func (p *parser) lineBreakCR(b []byte, i int, final bool) int {
	switch {
	case i+1 < len(b) && b[i+1] == '\n':
		return crBreak
	case i+1 == len(b) && !final:
		p.pendingCR = true
		return crPending
	}
	return crContent
}

// countHeaderByte counts, in the header, the other formats' delimiters
// and NUL bytes.
func (p *parser) countHeaderByte(c byte) {
	for k, d := range otherDelims {
		if c == d {
			p.others[k]++
		}
	}
	if c == 0 {
		p.nuls++
	}
}

// applyPendingCR applies a CR that turned out not to precede a LF: content
// of an unquoted field, or junk after a closing quote.
func (p *parser) applyPendingCR() error {
	switch p.state {
	case stRecordStart, stFieldStart:
		p.state = stUnquoted
	case stQuoteInQuoted:
		return p.quoteError(afterClosingQuote, p.line+1)
	}
	return nil
}

// endRecord closes the current record, of as many fields as delimiters
// seen plus one, and hands it to record with the line it started on.
func (p *parser) endRecord() error {
	p.state = stRecordStart
	n := p.fields + 1
	p.fields = 0
	return p.record(n, p.recLine)
}

// record takes a complete record of n fields starting on line: the first
// is the header (checked for NUL bytes and, when it has one column, for
// another format's delimiter); each later one must have as many fields.
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

// fieldsWord returns n with the noun, for messages: "1 field", "3 fields".
func fieldsWord(n int) string {
	if n == 1 {
		return "1 field"
	}
	return fmt.Sprintf("%d fields", n)
}

// absDiff returns the absolute difference of a and b.
func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// quoteError returns the ProblemQuote error for what is wrong on line, with
// the one advice on quoting.
func (p *parser) quoteError(what string, line int64) error {
	return &FileError{Problem: ProblemQuote, Line: line, Offset: -1,
		Detail: fmt.Sprintf("line %d: %s", line, what),
		Fix:    "a field that contains a quote must be enclosed in quotes, with each quote inside it doubled, such as \"say \"\"hi\"\"\"; nothing may follow the closing quote but the delimiter or the line break"}
}

// finish ends the file: it applies a pending CR, refuses a quoted field
// left open or a file without a header row, and closes the last record,
// which may lack its line break.
func (p *parser) finish() error {
	if p.pendingCR {
		p.pendingCR = false
		if err := p.applyPendingCR(); err != nil {
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
