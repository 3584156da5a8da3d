package flatfile

import (
	"bytes"
	"encoding/binary"
)

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

// quoteFinder finds the quotes of the units being fed as the scan of
// their records needs them, searching no further than it is asked (and
// vectorMin units past the scan's position): the quotes of a line before
// its LF, the way ahead of a run of lines. A file without quotes is then
// searched once, by the vector scan of its lines, not first for a quote.
// The units from the scan's position to free hold no quote; q is the
// first quote past them, once found (-1: not yet).
type quoteFinder struct {
	free int
	q    int
}

// before returns the index of the first quote in b[i:lim], or -1.
func (f *quoteFinder) before(b []byte, i, lim int) int {
	if f.q < i { // none known
		return f.search(b, i, lim)
	}
	if f.q < lim {
		return f.q
	}
	return -1
}

// search returns the index of the first quote in b[i:lim], or -1, where
// none is known from i on: it looks up to lim and vectorMin units past i
// at least, so that a line's search for its quotes is the next lines'
// too.
func (f *quoteFinder) search(b []byte, i, lim int) int {
	f.free = max(f.free, i)
	if f.free >= lim {
		return -1
	}
	to := min(len(b), max(lim, i+vectorMin))
	if k := bytes.IndexByte(b[f.free:to], '"'); k >= 0 {
		f.free += k
		f.q = f.free
		if f.q < lim {
			return f.q
		}
		return -1
	}
	f.free = to
	return -1
}

// clear records that the units from i to end hold no quote.
func (f *quoteFinder) clear(i, end int) {
	if f.q < i && f.free < end {
		f.free, f.q = end, -1
	}
}

// end returns the index of the first quote in b[i:], or len(b).
func (f *quoteFinder) end(b []byte, i int) int {
	if q := f.before(b, i, len(b)); q >= 0 {
		return q
	}
	return len(b)
}

// mapUTF16 appends to dst one unit per UTF-16 code unit of b (whose length
// is even), in little-endian or big-endian order: the code unit itself
// when it is ASCII, else 0x80, which is never a delimiter, a quote or a
// line break. A surrogate pair becomes two such units: recordScanner only
// looks for the ASCII ones, so nothing needs decoding. Four code units at
// a time while they are ASCII.
func mapUTF16(dst, b []byte, little bool) []byte {
	n := len(b) / 2
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	out := dst[start:]
	// In a little-endian load of 8 bytes, the bits that must be 0 for 4
	// ASCII code units, and the shift of each code unit's low byte.
	mask, shift := uint64(0x80FF80FF80FF80FF), uint(8)
	hi, lo := 0, 1
	if little {
		mask, shift = 0xFF80FF80FF80FF80, 0
		hi, lo = 1, 0
	}
	k := 0
	for ; k+4 <= n; k += 4 {
		w := binary.LittleEndian.Uint64(b[2*k:])
		if w&mask != 0 {
			for j := k; j < k+4; j++ {
				out[j] = utf16Unit(b[2*j+hi], b[2*j+lo])
			}
			continue
		}
		w >>= shift
		//nolint:gosec // each is one byte of w, on purpose
		out[k], out[k+1], out[k+2], out[k+3] = byte(w), byte(w>>16), byte(w>>32), byte(w>>48)
	}
	for ; k < n; k++ {
		out[k] = utf16Unit(b[2*k+hi], b[2*k+lo])
	}
	return dst
}

// utf16Unit returns the unit mapUTF16 gives the code unit of high byte hi
// and low byte lo.
func utf16Unit(hi, lo byte) byte {
	if hi == 0 && lo < 0x80 {
		return lo
	}
	return 0x80
}
