package flatfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The row counts and header rows here are judged against encoding/csv,
// which the service (the emulator stands for it) parses files with: Comma
// per format, LazyQuotes off, any number of fields; it skips blank lines
// (an empty line, or a lone CR before the line break), so the counter
// does too: a blank line is not a row.

// countReference reads in, a file in enc, as the emulator does: it decodes
// it to UTF-8 (x/text; bytes that do not decode become U+FFFD, which the
// counter, which does not check, counts as characters too), then reads
// its records with encoding/csv. It returns the first record and how many
// follow it, or encoding/csv's error.
func countReference(in []byte, format Format, enc Encoding) ([]string, int64, error) {
	r := csv.NewReader(bytes.NewReader(lenientDecode(in, enc)))
	r.Comma = format.Delimiter()
	r.FieldsPerRecord = -1
	r.LazyQuotes = false
	var header []string
	var n int64
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, err
		}
		if header == nil {
			header = slices.Clone(rec)
		} else {
			n++
		}
	}
	if header == nil {
		header = []string{}
	}
	return header, n, nil
}

// lenientDecode decodes in from enc past its byte order mark, as the
// emulator picks and skips it.
func lenientDecode(in []byte, enc Encoding) []byte {
	switch enc {
	case EncodingUTF8:
		return bytes.TrimPrefix(in, utf8BOMBytes)
	case EncodingLatin1:
		b, _ := charmap.Windows1252.NewDecoder().Bytes(in)
		return b
	}
	order := unicode.BigEndian
	switch {
	case bytes.HasPrefix(in, []byte{0xFF, 0xFE}):
		order, in = unicode.LittleEndian, in[2:]
	case bytes.HasPrefix(in, []byte{0xFE, 0xFF}):
		in = in[2:]
	}
	b, _ := unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder().Bytes(in)
	return b
}

// countChunked feeds in to a new counter in chunks of size (0: whole).
func countChunked(t testing.TB, in []byte, format Format, enc Encoding, size int) Counts {
	t.Helper()
	c, err := NewRowCounter(format, enc)
	if err != nil {
		t.Fatal(err)
	}
	if size <= 0 {
		size = len(in) + 1
	}
	for b := in; len(b) > 0; {
		k := min(size, len(b))
		if n, err := c.Write(b[:k]); n != k || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
		b = b[k:]
	}
	return c.Result()
}

// checkCountAgainstCSV fails t when the counter's result for in, fed whole,
// one byte at a time and in chunks of chunk bytes, is not what encoding/csv
// reads, or when the checker accepts in with other rows; it returns
// encoding/csv's error.
func checkCountAgainstCSV(t testing.TB, in []byte, format Format, enc Encoding, chunk int) error {
	t.Helper()
	header, rows, cerr := countReference(in, format, enc)
	whole := countChunked(t, in, format, enc, 0)
	for _, size := range []int{1, chunk} {
		if got := countChunked(t, in, format, enc, size); !equalCounts(got, whole) {
			t.Fatalf("%s %s %q: in chunks of %d: %+v, whole: %+v", format, enc, in, size, got, whole)
		}
	}
	if whole.Size != int64(len(in)) {
		t.Fatalf("%s %s %q: Size %d, want %d", format, enc, in, whole.Size, len(in))
	}
	if sum, err := CheckFile(bytes.NewReader(in), format, enc, 0); err == nil && (cerr != nil || whole.Malformed || sum.Rows != whole.Rows) {
		t.Fatalf("%s %s %q: the checker accepts %d rows, the counter %+v, encoding/csv %v", format, enc, in, sum.Rows, whole, cerr)
	}
	if cerr != nil {
		if !whole.Malformed {
			t.Fatalf("%s %s %q: encoding/csv says %v, the counter not malformed (%+v)", format, enc, in, cerr, whole)
		}
		return cerr
	}
	if whole.Malformed || whole.Rows != rows {
		t.Fatalf("%s %s %q: counter %+v, encoding/csv %d rows", format, enc, in, whole, rows)
	}
	switch whole.NoColumns {
	case "":
		if !slices.Equal(whole.Columns, header) || whole.Columns == nil {
			t.Fatalf("%s %s %q: columns %q, encoding/csv %q", format, enc, in, whole.Columns, header)
		}
	case NoColumnsEncoding:
		if _, ok := decodeText(bodyOf(in, enc), enc, bytes.HasPrefix(in, []byte{0xFF, 0xFE})); ok {
			t.Fatalf("%s %s %q: columns unavailable (%s), but the file decodes", format, enc, in, whole.NoColumns)
		}
	default:
		t.Fatalf("%s %s %q: columns unavailable (%s), encoding/csv %q", format, enc, in, whole.NoColumns, header)
	}
	return nil
}

// bodyOf returns in past the byte order mark the counter skips.
func bodyOf(in []byte, enc Encoding) []byte {
	switch {
	case enc == EncodingUTF8:
		return bytes.TrimPrefix(in, utf8BOMBytes)
	case enc == EncodingUTF16 && (bytes.HasPrefix(in, []byte{0xFF, 0xFE}) || bytes.HasPrefix(in, []byte{0xFE, 0xFF})):
		return in[2:]
	}
	return in
}

// equalCounts reports whether a and b are the same counts.
func equalCounts(a, b Counts) bool {
	return slices.Equal(a.Columns, b.Columns) && (a.Columns == nil) == (b.Columns == nil) &&
		a.NoColumns == b.NoColumns && a.Rows == b.Rows && a.Size == b.Size && a.Malformed == b.Malformed
}

// genPieces are what generated cells are made of; latin1 marks those
// Windows Latin-1 can encode.
var genPieces = []struct {
	s      string
	latin1 bool
}{
	{"a", true}, {"Account", true}, {"4000", true}, {" ", true}, {"é", true}, {"€", true},
	{"日本", false}, {"😀", false}, {",", true}, {"|", true}, {"\t", true}, {"\"", true},
	{"\r\n", true}, {"\n", true}, {"\r", true}, {";", true},
}

// genCell returns a random cell, quoted when it must be (or by chance);
// with bad, sometimes one whose quoting encoding/csv refuses.
func genCell(rng *rand.Rand, delim byte, latin1, bad bool) string {
	var b strings.Builder
	for range rng.IntN(4) {
		p := genPieces[rng.IntN(len(genPieces))]
		if p.latin1 || !latin1 {
			b.WriteString(p.s)
		}
	}
	s := b.String()
	if bad && rng.IntN(8) == 0 {
		return [...]string{`a"b`, `"a"b`, `"open`, `"a""`, "\"a\"\rb"}[rng.IntN(5)]
	}
	if strings.ContainsAny(s, string(delim)+"\"\r\n") || rng.IntN(5) == 0 {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// genText returns a random flat file's text: records of random cells,
// blank lines, LF or CR LF line breaks, the last maybe without one.
func genText(rng *rand.Rand, delim byte, latin1, bad bool) string {
	var b strings.Builder
	for r := range rng.IntN(7) {
		if rng.IntN(4) == 0 {
			b.WriteString([...]string{"\n", "\r\n", "\r\r\n", " \n"}[rng.IntN(4)])
		}
		for k := range rng.IntN(4) + 1 {
			if k > 0 {
				b.WriteByte(delim)
			}
			b.WriteString(genCell(rng, delim, latin1, bad))
		}
		if r < 6 && rng.IntN(6) == 0 {
			break // no final line break
		}
		b.WriteString([...]string{"\n", "\r\n"}[rng.IntN(2)])
	}
	return b.String()
}

// encodeText encodes text in enc: UTF-8 with or without a byte order
// mark, Windows Latin-1, UTF-16 little-endian or big-endian with one or
// big-endian without (variant picks).
func encodeText(text string, enc Encoding, variant int) []byte {
	switch enc {
	case EncodingUTF8:
		if variant%2 == 1 {
			return append(slices.Clone(utf8BOMBytes), text...)
		}
		return []byte(text)
	case EncodingLatin1:
		b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(text))
		if err != nil {
			panic(err)
		}
		return b
	}
	units := utf16.Encode([]rune(text))
	var out []byte
	little := variant%3 == 1
	switch variant % 3 {
	case 0:
		out = []byte{0xFE, 0xFF}
	case 1:
		out = []byte{0xFF, 0xFE}
	}
	for _, u := range units {
		if little {
			out = append(out, byte(u), byte(u>>8))
		} else {
			out = append(out, byte(u>>8), byte(u))
		}
	}
	return out
}

// TestRowCounterMatchesEncodingCSV: generated files in every format and
// encoding (quoted cells holding delimiters, quotes, CR LF, LF; blank
// lines; no final line break; byte order marks; some with broken
// quoting): the counter, fed whole, a byte at a time and in random chunks,
// finds the rows and header encoding/csv reads, and the emulator's parser
// the same rows and header.
func TestRowCounterMatchesEncodingCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[bool]int{}
	for _, format := range Formats {
		delim := byte(format.Delimiter())
		for _, enc := range Encodings {
			for i := range 400 {
				text := genText(rng, delim, enc == EncodingLatin1, i%3 == 0)
				in := encodeText(text, enc, i)
				cerr := checkCountAgainstCSV(t, in, format, enc, rng.IntN(9)+2)
				seen[cerr != nil]++
				if cerr == nil {
					checkAgainstEmulator(t, in, format, enc)
				}
			}
		}
	}
	t.Logf("generated files: %d well formed, %d malformed", seen[false], seen[true])
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("generated files: %d well formed, %d malformed; want both", seen[false], seen[true])
	}
}

// checkAgainstEmulator fails t when the emulator's parser finds other rows
// or another header in in than the counter.
func checkAgainstEmulator(t *testing.T, in []byte, format Format, enc Encoding) {
	t.Helper()
	res, err := emulator.ParseFlatFile(bytes.NewReader(in), string(format), string(enc))
	var pe *emulator.ParseError
	if err != nil && (!errors.As(err, &pe) || pe.Problem == "encoding" || pe.Problem == "malformed") {
		t.Fatalf("%s %s %q: the emulator refuses it: %v", format, enc, in, err)
	}
	got := countChunked(t, in, format, enc, 0)
	header := res.Header
	if header == nil {
		header = []string{}
	}
	if got.Rows != int64(res.Rows) || !slices.Equal(got.Columns, header) {
		t.Fatalf("%s %s %q: counter %d rows %q, emulator %d rows %q", format, enc, in, got.Rows, got.Columns, res.Rows, res.Header)
	}
}

// FuzzRowCounter checks the counter against encoding/csv on any bytes, in
// any format and encoding, fed in chunks of any size: the same rows and
// header when encoding/csv reads the file, malformed when it refuses it.
func FuzzRowCounter(f *testing.F) {
	for _, s := range fileSeeds {
		f.Add([]byte(s), uint8(0), uint8(0), uint8(3))
	}
	f.Add(utf16Bytes("A,\"B\r\nC\"\n1,2", false, true), uint8(0), uint8(1), uint8(1))
	f.Add(utf16Bytes("A|B\r\n\r\n1|\"x\"\"y\"\r", true, true), uint8(1), uint8(1), uint8(2))
	f.Add([]byte("\xEF\xBB\xBFA\tB\n\n\xE9\t\"2\n3\"\n"), uint8(2), uint8(0), uint8(5))
	f.Add([]byte("A,B\n\"1\"x,2\n"), uint8(0), uint8(2), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, fmtIdx, encIdx, chunk uint8) {
		format := Formats[int(fmtIdx)%len(Formats)]
		enc := Encodings[int(encIdx)%len(Encodings)]
		_ = checkCountAgainstCSV(t, in, format, enc, int(chunk%16)+1)
	})
}
