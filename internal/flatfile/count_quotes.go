package flatfile

import "bytes"

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
