package flatfile

import (
	"bytes"
	"fmt"
)

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

// quoteError returns the ProblemQuote error for what is wrong on line, with
// the one advice on quoting.
func quoteError(what string, line int64) error {
	return &FileError{Problem: ProblemQuote, Line: line, Offset: -1,
		Detail: fmt.Sprintf("line %d: %s", line, what),
		Fix:    "a field that contains a quote must be enclosed in quotes, with each quote inside it doubled, such as \"say \"\"hi\"\"\"; nothing may follow the closing quote but the delimiter or the line break"}
}

// neverClosed returns the ProblemQuote error for a quoted field opened on
// line that the file ends inside.
func neverClosed(line int64) error {
	return &FileError{Problem: ProblemQuote, Line: line, Offset: -1,
		Detail: fmt.Sprintf("line %d: a quoted field is never closed (the file ends inside it)", line),
		Fix:    "close the quoted field with a quote, and double every quote inside it"}
}

// emptyFirstLine returns the ProblemNoHeader error for a blank first line.
func emptyFirstLine() error {
	return &FileError{Problem: ProblemNoHeader, Line: 1, Offset: -1,
		Detail: "line 1 is empty: the first line must be the header row of column names",
		Fix:    "remove the empty line(s) before the header"}
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
