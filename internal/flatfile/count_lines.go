package flatfile

import "bytes"

// The vector scan of lines (linesAVX2, where the CPU has it) against one
// search a line (bytes.IndexByte).
const (
	// vectorMin: a run of lines shorter than this is counted one by one;
	// starting the vector scan would cost more. Where a quote comes
	// within it, the lines before the quote are counted one by one.
	vectorMin = 256
	// nearStretch: where the vector scan stops (at a quote, or at two
	// LFs close together: a blank line, or a line of one unit), the lines
	// from there are counted one by one for this many units before it is
	// tried again.
	nearStretch = 4 << 10
)

// wholeLines counts the lines from b[i] (a record's start: b[i-1] is a
// LF, past the header) that end before the next quote, which qs finds,
// and returns where the last ended: the hot loop of a file without
// quotes. A line whose LF is three or more units past the one before
// holds something besides a CR, so it is a record: the vector scan counts
// such lines 64 units a step, and stops at a quote; the lines about a
// blank line (or a line of one unit) are counted one by one, and every
// line when checking.
func (s *recordScanner) wholeLines(b []byte, i int, qs *quoteFinder) int {
	if !haveVectorLines || s.oneByOne || s.check {
		return s.linesOneByOne(b, i, qs.end(b, i))
	}
	for {
		if q := qs.before(b, i, min(len(b), i+vectorMin)); q >= 0 {
			return s.linesOneByOne(b, i, q)
		}
		if len(b)-i <= vectorMin {
			return s.linesOneByOne(b, i, len(b)) // no quote: looked for
		}
		n, last, done := 0, 0, i
		if b[i] != '\n' { // else a blank line at once
			n, last, done = linesAVX2(b[i-1:])
			done += i - 1
		}
		s.records += int64(n)
		i += last // past the last LF counted
		qs.clear(i, done)
		stretch := min(len(b), done+nearStretch)
		if q := qs.before(b, i, stretch); q >= 0 {
			return s.linesOneByOne(b, i, q)
		}
		if stretch == len(b) {
			return s.linesOneByOne(b, i, len(b))
		}
		i = s.linesOneByOne(b, i, stretch)
	}
}

// linesOneByOne counts the lines of b[i:end] (which holds no quote) that
// end in it, at a record's start, past the header, one search a line
// (checking, each record's fields too, to the first problem). It returns
// where the last ended.
func (s *recordScanner) linesOneByOne(b []byte, i, end int) int {
	for s.err == nil {
		nl := bytes.IndexByte(b[i:end], '\n')
		if nl < 0 {
			break
		}
		s.line++
		if nl > 1 || (nl == 1 && b[i] != '\r') { // else a blank line
			s.records++
			if s.check {
				s.checkRecord(bytes.Count(b[i:i+nl], []byte{s.delim})+1, s.line)
			}
		}
		i += nl + 1
	}
	return i
}
