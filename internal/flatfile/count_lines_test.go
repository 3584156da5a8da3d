package flatfile

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// linesReference is linesAVX2's contract in plain Go: the units s[j], j
// from 2, 64 a step while a whole step remains, stopping before a step
// that holds a quote or a LF one or two units after another LF.
func linesReference(s []byte) (n, last, done int) {
	j := 2
	for ; j+64 <= len(s); j += 64 {
		for k := j; k < j+64; k++ {
			if s[k] == '"' || (s[k] == '\n' && (s[k-1] == '\n' || s[k-2] == '\n')) {
				return n, last, j
			}
		}
		for k := j; k < j+64; k++ {
			if s[k] == '\n' {
				n, last = n+1, k
			}
		}
	}
	return n, last, j
}

// randomUnits returns n units of lines of random lengths (up to maxLine),
// each LF sometimes after a CR, and now and then a quote, a blank line or
// a line of one unit.
func randomUnits(rng *rand.Rand, n, maxLine int) []byte {
	b := []byte{'\n'}
	for len(b) < n {
		switch rng.IntN(40) {
		case 0:
			b = append(b, '"')
		case 1:
			b = append(b, '\n')
		case 2:
			b = append(b, '\r', '\n')
		case 3:
			b = append(b, 'x', '\n')
		}
		b = append(b, bytes.Repeat([]byte{'a'}, rng.IntN(maxLine)+2)...)
		b = append(b, [...]string{"\n", "\r\n"}[rng.IntN(2)]...)
	}
	return b[:n]
}

// TestLinesAVX2: the vector scan finds what its contract in plain Go
// finds, on units of every length up to a few steps, at every alignment,
// and on runs of more than 255 steps (where its byte lanes are summed).
func TestLinesAVX2(t *testing.T) {
	if !haveVectorLines {
		t.Skip("no vector scan of lines on this CPU or architecture: lines are counted one by one")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(s []byte) {
		t.Helper()
		n, last, done := linesAVX2(s)
		wn, wlast, wdone := linesReference(s)
		if n != wn || last != wlast || done != wdone {
			t.Fatalf("%q: n %d, last %d, done %d; want %d, %d, %d", s, n, last, done, wn, wlast, wdone)
		}
	}
	for size := 2; size < 400; size++ {
		for range 20 {
			units := randomUnits(rng, size+64, rng.IntN(80)+1)
			off := rng.IntN(64)
			check(units[off : off+size])
		}
	}
	plain := bytes.Repeat([]byte("4000,Entity 12,123456,row 1234567\n"), 3000)
	check(append([]byte{'\n', 'x'}, plain...))
	for range 50 {
		check(randomUnits(rng, 20000+rng.IntN(20000), 200+rng.IntN(2000)))
	}
}

// TestLinesAVX2Stops: the vector scan stops before the step that holds a
// quote or a blank line, wherever in the step it is, and counts the steps
// before it.
func TestLinesAVX2Stops(t *testing.T) {
	if !haveVectorLines {
		t.Skip("no vector scan of lines on this CPU or architecture: lines are counted one by one")
	}
	base := []byte("\n" + strings.Repeat("ab\r\ncdefgh\n", 40))
	for _, stop := range []string{"\"", "\n", "\r\n"} {
		for at := 2; at < 2+3*64; at++ {
			s := append(bytes.Clone(base[:at]), stop...)
			if stop != "\"" {
				s = append(s[:at], append([]byte{'\n'}, stop...)...)
			}
			s = append(s, base[at:]...)
			n, last, done := linesAVX2(s)
			wn, wlast, wdone := linesReference(s)
			if n != wn || last != wlast || done != wdone || done > at+2 {
				t.Fatalf("%q at %d: n %d, last %d, done %d; want %d, %d, %d", stop, at, n, last, done, wn, wlast, wdone)
			}
		}
	}
}

// countBoth counts in, in chunks of chunk bytes, with the vector scan of
// lines and with one search a line.
func countBoth(t testing.TB, in []byte, format Format, enc Encoding, chunk int) (fast, oneByOne Counts) {
	t.Helper()
	fast = countChunked(t, in, format, enc, chunk)
	c, err := NewRowCounter(format, enc)
	if err != nil {
		t.Fatal(err)
	}
	c.scan.oneByOne = true
	for b := in; len(b) > 0; b = b[min(chunk, len(b)):] {
		_, _ = c.Write(b[:min(chunk, len(b))])
	}
	return fast, c.Result()
}

// expandText turns a fuzzer's recipe into a flat file's text: each byte a
// piece (a run of letters or digits of its length, a LF, a CR LF, a CR, a
// delimiter, a quote, or characters beyond ASCII), the recipe repeated
// reps times, so that short recipes make files of many 64-unit steps.
func expandText(recipe []byte, reps int, delim byte, latin1 bool) string {
	var b strings.Builder
	for range reps {
		for _, x := range recipe {
			size := int(x>>3) + 1
			switch x & 7 {
			case 0:
				b.WriteString(strings.Repeat("abcdefgh", 4)[:size])
			case 1:
				b.WriteString(strings.Repeat("4000 12 ", 4)[:size])
			case 2:
				b.WriteString("é€")
				if !latin1 {
					b.WriteString("😀日")
				}
			case 3:
				b.WriteByte('\n')
			case 4:
				b.WriteString("\r\n")
			case 5:
				b.WriteByte('\r')
			case 6:
				b.WriteByte(delim)
			case 7:
				b.WriteByte('"')
			}
		}
	}
	return b.String()
}

// FuzzRowCounterVector: the vector scan of lines and one search a line
// count the same in any file: rows with and without quotes, with CRs, CR
// LFs and blank lines, in every format and encoding (UTF-16 in both byte
// orders), fed in chunks of any size; and both count what encoding/csv
// reads.
func FuzzRowCounterVector(f *testing.F) {
	f.Add([]byte("A\x06B\x03\x98\x06\xf8\x03"), uint8(200), uint8(0), uint8(0), uint16(1<<15))
	f.Add([]byte("A\x03\xf8\x06\xa1\x04\x03\x98\x03"), uint8(120), uint8(1), uint8(1), uint16(999))
	f.Add([]byte("A\x03\x9f\x07\xa8\x03\x07\x06\xf8\x04\x05\x04"), uint8(90), uint8(2), uint8(2), uint16(4096))
	f.Add([]byte("A\x04\xf8\x02\xa0\x04\x04\xf9\x03\x03"), uint8(255), uint8(0), uint8(1), uint16(65535))
	lines := bytes.Repeat([]byte("\xf8\x06\xf9\x03"), 12)
	f.Add(append(slices.Clone(lines), "\x07\xf8\x07\x06\x98\x03"...), uint8(60), uint8(0), uint8(0), uint16(1<<14))
	f.Add(append(slices.Clone(lines), "\x03\x04\x05\x03\xa9\x04"...), uint8(80), uint8(1), uint8(0), uint16(3000))
	f.Fuzz(func(t *testing.T, recipe []byte, reps uint8, fmtIdx, encIdx uint8, chunk uint16) {
		format := Formats[int(fmtIdx)%len(Formats)]
		enc := Encodings[int(encIdx)%len(Encodings)]
		delim := byte(format.Delimiter())
		// A header row of its own: one longer than HeaderMaxBytes has no
		// columns, which encoding/csv knows nothing of (FuzzRowCounter
		// tries header rows).
		text := "Account" + string(delim) + "Amount\n" + expandText(recipe, int(reps), delim, enc == EncodingLatin1)
		in := encodeText(text, enc, int(chunk))
		fast, oneByOne := countBoth(t, in, format, enc, int(chunk)+1)
		if !equalCounts(fast, oneByOne) {
			t.Fatalf("%s %s, %d bytes: vector scan %+v, one search a line %+v", format, enc, len(in), fast, oneByOne)
		}
		_ = checkCountAgainstCSV(t, in, format, enc, int(chunk)+1)
	})
}

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

// TestMapUTF16: ASCII code units are kept, any other (a surrogate, or a
// unit whose low byte looks like a LF or a quote) becomes 0x80.
func TestMapUTF16(t *testing.T) {
	be := []byte{0x00, 'A', 0x00, '\n', 0x0A, 0x00, 0xD8, 0x3D, 0xDE, 0x00, 0x00, '"', 0x01, 0x22}
	want := []byte{'A', '\n', 0x80, 0x80, 0x80, '"', 0x80}
	if got := mapUTF16([]byte("x"), be, false); !bytes.Equal(got, append([]byte("x"), want...)) {
		t.Fatalf("big-endian: %q, want x%q", got, want)
	}
	le := make([]byte, len(be))
	for i := 0; i < len(be); i += 2 {
		le[i], le[i+1] = be[i+1], be[i]
	}
	if got := mapUTF16(nil, le, true); !bytes.Equal(got, want) {
		t.Fatalf("little-endian: %q, want %q", got, want)
	}
}

// TestMapUTF16Words: the four-at-a-time path and the one-at-a-time path
// agree, wherever a non-ASCII code unit falls among ASCII ones.
func TestMapUTF16Words(t *testing.T) {
	for _, little := range []bool{false, true} {
		for pos := range 11 {
			units := bytes.Repeat([]byte{0, 'a'}, 11)
			if little {
				units = bytes.Repeat([]byte{'a', 0}, 11)
			}
			units[2*pos], units[2*pos+1] = 0x20, 0xAC // U+20AC or U+AC20
			got := mapUTF16(nil, units, little)
			for k := range got {
				hi, lo := units[2*k], units[2*k+1]
				if little {
					hi, lo = lo, hi
				}
				if got[k] != utf16Unit(hi, lo) {
					t.Fatalf("little %v, non-ASCII at %d: unit %d is %#x", little, pos, k, got[k])
				}
			}
		}
	}
}
