package flatfile

import (
	"bytes"
	"fmt"
)

// The states of recordScanner.state.
const (
	// scanOut is the state outside a quoted field.
	scanOut = iota
	// scanIn is the state inside a quoted field.
	scanIn
	// scanQuote is the state after a quote inside a quoted field: the
	// closing quote, or the first of a doubled pair.
	scanQuote
	// scanQuoteCR is the state after a closing quote and a CR: only a LF
	// (or the end of the file) may follow.
	scanQuoteCR
)

// What a record holds so far, outside quotes, for recordScanner.rec: a
// line that is empty or only a CR is blank (encoding/csv drops a CR
// before a LF or the end of the file, then skips an empty line).
const (
	// recEmpty: nothing yet.
	recEmpty = iota
	// recCR: one CR alone.
	recCR
	// recContent: anything more; the record counts.
	recContent
)

// recordScanner reads the records of delimited text as encoding/csv
// reads it (LazyQuotes off, as the service): RFC 4180 quoting, a LF or CR
// LF ends a record outside quotes, a blank line is skipped, a CR before the
// end of the text is dropped, and the last record needs no line break. It
// is fed units, one byte each: the text's own bytes when it is UTF-8 or
// Windows Latin-1 (the delimiter, the quote, CR and LF are ASCII and never
// part of another character), or one byte per UTF-16 code unit
// (mapUTF16). Only those four units matter, so it jumps from one to the
// next with bytes.IndexByte, and counts runs of lines without a quote 64
// units a step where the CPU can (wholeLines).
//
// Counting (RowCounter), it counts the records, and where quoting breaks
// encoding/csv's rules it sets malformed and goes on as LazyQuotes would.
// Checking (CheckFile: check set), it also counts the lines and each
// record's fields, keeps the header row's field count and the other
// formats' delimiters in it (checkRecord), and stops at the first
// problem, err.
type recordScanner struct {
	delim byte
	// oneByOne: count every line with bytes.IndexByte, never with the
	// vector scan (the tests compare the two).
	oneByOne bool
	state    int
	rec      int  // recEmpty, recCR or recContent
	prev     byte // the unit before, outside quotes ('\n' at a record's start)

	records   int64 // non-blank records ended
	units     int64 // units fed before the current feed
	headerEnd int64 // units up to the header's end; -1 until it ends
	malformed bool

	check    bool
	format   Format // checking: the format the delimiter is of
	eightBit bool   // checking: the text is UTF-8 or Windows Latin-1
	// Checking: the LFs passed, the lines the current record and the
	// last quoted field start on, the delimiters outside quotes in the
	// current record, the header's fields, and otherDelims and the NULs
	// outside quotes in the header.
	line, recLine, quoteLine int64
	fields, cols             int
	others                   [4]int
	nuls                     int
	err                      error
}

// newRecordScanner returns a scanner of text whose delimiter is delim.
func newRecordScanner(delim byte) *recordScanner {
	return &recordScanner{delim: delim, prev: '\n', headerEnd: -1}
}

// feed scans the next units of the text.
func (s *recordScanner) feed(b []byte) {
	// Where the next LF at or after i is, looked for again once i has
	// passed it (-1: none; -2: not looked for yet): a line of quoted
	// cells is searched once for its LF; and how far the units are known
	// to hold no quote.
	next := nextUnits{nl: -2, quotes: quoteFinder{q: -1}}
	i := 0
	for i < len(b) && s.err == nil {
		switch s.state {
		case scanOut:
			i = s.scanOut(b, i, &next)
		case scanIn:
			i = s.scanIn(b, i)
		case scanQuote:
			i = s.afterQuote(b, i)
		case scanQuoteCR:
			if b[i] == '\n' {
				s.line++
				s.endRecord(i + 1)
				i++
				break
			}
			// The CR was junk after the closing quote.
			s.bad(afterClosingQuote)
			s.state = scanIn
		}
	}
	s.units += int64(len(b))
}

// nextUnits caches where the next LF (nl) is in the units being fed (-1
// none, -2 not looked for), and what is known of their quotes.
type nextUnits struct {
	nl     int
	quotes quoteFinder
}

// find returns the index of the next c in b at or after i, from the
// cached *at when it is still ahead of i.
func find(b []byte, i int, c byte, at *int) int {
	if *at == -2 || (*at >= 0 && *at < i) {
		if *at = bytes.IndexByte(b[i:], c); *at >= 0 {
			*at += i
		}
	}
	return *at
}

// scanOut scans b from i outside quotes, line by line, until a quoted
// field opens or b ends (or a problem, checking), and returns where it
// stopped.
func (s *recordScanner) scanOut(b []byte, i int, next *nextUnits) int {
	for i < len(b) && s.err == nil {
		nl := find(b, i, '\n', &next.nl)
		lim := nl
		if nl < 0 {
			lim = len(b)
		}
		if q := next.quotes.before(b, i, lim); q >= 0 {
			s.content(b[i:q])
			s.openQuote()
			return q + 1
		}
		if nl < 0 {
			s.content(b[i:])
			return len(b)
		}
		s.content(b[i:nl])
		s.line++
		if s.rec == recContent {
			s.endRecord(nl + 1)
		} else {
			s.blankLine()
		}
		i = nl + 1
		if s.records > 0 {
			i = s.wholeLines(b, i, &next.quotes)
			next.nl = -2
		}
	}
	return i
}

// content takes seg, units of the current record outside quotes with no
// quote and no LF.
func (s *recordScanner) content(seg []byte) {
	if len(seg) == 0 {
		return
	}
	if s.check {
		s.checkContent(seg)
	}
	if s.rec == recEmpty && len(seg) == 1 && seg[0] == '\r' {
		s.rec = recCR
	} else {
		s.rec = recContent
	}
	s.prev = seg[len(seg)-1]
}

// openQuote takes a quote outside quotes: it opens a quoted field at the
// start of a field; elsewhere it is a bare quote, which encoding/csv
// refuses (kept as content, as LazyQuotes does).
func (s *recordScanner) openQuote() {
	if s.prev != s.delim && s.prev != '\n' {
		s.rec, s.prev = recContent, '"'
		s.bad(`a quote (") inside an unquoted field`)
		return
	}
	if s.rec == recEmpty {
		s.recLine = s.line + 1
	}
	s.rec, s.state, s.quoteLine = recContent, scanIn, s.line+1
}

// scanIn scans b from i inside a quoted field, to the quote that ends it
// (or b's end), and returns where it stopped. Where a quoted field is
// followed at once by the next (a quote after a delimiter or a line
// break), it goes on in the next, so that a file of quoted cells costs one
// search a cell.
func (s *recordScanner) scanIn(b []byte, i int) int {
	for {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			s.quotedLines(b[i:])
			return len(b)
		}
		s.quotedLines(b[i : i+k])
		j := i + k + 1 // after the quote
		if j+1 >= len(b) {
			s.state = scanQuote
			return j
		}
		switch c := b[j]; {
		case c == '"': // a doubled quote
			i = j + 1
		case c == s.delim && b[j+1] == '"':
			s.fields++
			s.quoteLine = s.line + 1
			i = j + 2
		case c == '\n' && b[j+1] == '"':
			s.line++
			if s.endRecord(j + 1); s.err != nil {
				return j + 1
			}
			s.state, s.rec = scanIn, recContent
			s.recLine, s.quoteLine = s.line+1, s.line+1
			i = j + 2
		default:
			s.state = scanQuote
			return j
		}
	}
}

// quotedLines counts, checking, the LFs of b, inside a quoted field.
func (s *recordScanner) quotedLines(b []byte) {
	if s.check {
		s.line += int64(bytes.Count(b, []byte{'\n'}))
	}
}

// afterQuote takes b[i] after a quote inside a quoted field and returns
// where to go on.
func (s *recordScanner) afterQuote(b []byte, i int) int {
	switch b[i] {
	case '"':
		s.state = scanIn // a doubled quote
	case s.delim:
		s.state, s.prev = scanOut, s.delim
		s.fields++
	case '\n':
		s.line++
		s.endRecord(i + 1)
	case '\r':
		s.state = scanQuoteCR
	default:
		// Junk after the closing quote: kept in the field, as LazyQuotes
		// does.
		s.bad(afterClosingQuote)
		s.state = scanIn
		return i
	}
	return i + 1
}

// afterClosingQuote is the problem of anything else after a closing quote.
const afterClosingQuote = "a character other than the delimiter or a line break after the closing quote of a quoted field"

// bad takes quoting that encoding/csv refuses, on the current line, what
// says how: the text is malformed, and checking, that is the problem.
func (s *recordScanner) bad(what string) {
	s.malformed = true
	if s.check {
		s.fail(&FileError{Problem: ProblemQuote, Line: s.line + 1, Offset: -1,
			Detail: fmt.Sprintf("line %d: %s", s.line+1, what),
			Fix:    "a field that contains a quote must be enclosed in quotes, with each quote inside it doubled, such as \"say \"\"hi\"\"\"; nothing may follow the closing quote but the delimiter or the line break"})
	}
}

// fail keeps err as the problem, unless one came before.
func (s *recordScanner) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// blankLine takes a blank line: skipped; checking, refused before the
// header.
func (s *recordScanner) blankLine() {
	s.rec, s.prev = recEmpty, '\n'
	if s.check && s.records == 0 {
		s.fail(&FileError{Problem: ProblemNoHeader, Line: 1, Offset: -1,
			Detail: "line 1 is empty: the first line must be the header row of column names",
			Fix:    "remove the empty line(s) before the header"})
	}
}

// endRecord ends a non-blank record whose line break ends at b[end-1];
// checking, it checks the record's fields.
func (s *recordScanner) endRecord(end int) {
	s.records++
	if s.records == 1 {
		s.headerEnd = s.units + int64(end)
	}
	s.state, s.rec, s.prev = scanOut, recEmpty, '\n'
	if s.check {
		s.checkRecord(s.fields+1, s.recLine)
	}
	s.fields = 0
}

// finish ends the text: a record left open counts unless it is blank; a
// quoted field left open is malformed.
func (s *recordScanner) finish() {
	switch s.state {
	case scanIn:
		s.malformed = true
		if s.check {
			s.fail(&FileError{Problem: ProblemQuote, Line: s.quoteLine, Offset: -1,
				Detail: fmt.Sprintf("line %d: a quoted field is never closed (the file ends inside it)", s.quoteLine),
				Fix:    "close the quoted field with a quote, and double every quote inside it"})
		}
	case scanOut:
		if s.rec != recContent {
			return
		}
	}
	s.endRecord(0) // s.units already counts every unit
}
