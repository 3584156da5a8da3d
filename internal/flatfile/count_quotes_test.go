package flatfile

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestQuoteFinder: asked in any order the scan asks (its position never
// going back, some ranges said to hold no quote), the finder answers as a
// search of the range would.
func TestQuoteFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	naive := func(b []byte, i, lim int) int {
		if k := bytes.IndexByte(b[i:lim], '"'); k >= 0 {
			return i + k
		}
		return -1
	}
	for range 2000 {
		b := bytes.Repeat([]byte{'a'}, rng.IntN(3000))
		for range rng.IntN(6) {
			if len(b) > 0 {
				b[rng.IntN(len(b))] = '"'
			}
		}
		f := quoteFinder{q: -1}
		for i := 0; i < len(b); i += rng.IntN(200) + 1 {
			lim := i + rng.IntN(len(b)-i+1)
			if got, want := f.before(b, i, lim), naive(b, i, lim); got != want {
				t.Fatalf("before(%d, %d) = %d, want %d", i, lim, got, want)
			}
			if got, want := f.end(b, i), naive(b, i, len(b)); got != want && (want >= 0 || got != len(b)) {
				t.Fatalf("end(%d) = %d, want %d", i, got, want)
			}
			if rng.IntN(3) == 0 {
				if end := i + rng.IntN(len(b)-i+1); naive(b, i, end) < 0 {
					f.clear(i, end)
				}
			}
		}
	}
}

// TestQuoteFinderLooksAhead: a search goes to the range's end, or
// vectorMin units past the position when that is further, no more: a
// line's search serves the lines after it, and a file without quotes is
// not searched whole for one.
func TestQuoteFinderLooksAhead(t *testing.T) {
	b := bytes.Repeat([]byte{'a'}, 4*vectorMin)
	f := quoteFinder{q: -1}
	if q := f.before(b, 10, 20); q != -1 || f.free != 10+vectorMin {
		t.Fatalf("before(10, 20) = %d, searched to %d; want -1, %d", q, f.free, 10+vectorMin)
	}
	if q := f.before(b, 30, 3*vectorMin); q != -1 || f.free != 3*vectorMin {
		t.Fatalf("before(30, %d) = %d, searched to %d; want -1, %d", 3*vectorMin, q, f.free, 3*vectorMin)
	}
	b[3*vectorMin+5] = '"'
	if q := f.before(b, 3*vectorMin, 3*vectorMin+1); q != -1 || f.q != 3*vectorMin+5 {
		t.Fatalf("before past the quote's line = %d, found %d; want -1, %d", q, f.q, 3*vectorMin+5)
	}
}
