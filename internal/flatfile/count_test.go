package flatfile

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestNewRowCounterRefuses: an unknown format or encoding.
func TestNewRowCounterRefuses(t *testing.T) {
	if _, err := NewRowCounter("XLS", EncodingUTF8); err == nil {
		t.Fatal("format XLS: no error")
	}
	if _, err := NewRowCounter(FormatCSV, "EBCDIC"); err == nil {
		t.Fatal("encoding EBCDIC: no error")
	}
}

// countSamples are files in each encoding whose byte order marks, code
// units and CR LFs the chunk tests cut.
var countSamples = []struct {
	in     []byte
	format Format
	enc    Encoding
	rows   int64
}{
	{[]byte("\xEF\xBB\xBFA,B\r\n\"1\r\n\",2\r\n\r\n3,4"), FormatCSV, EncodingUTF8, 2},
	{[]byte("\xEF\xBB"), FormatCSV, EncodingUTF8, 0},
	{[]byte("A|B\n\xE9|\"\"\"\"\n"), FormatPSV, EncodingLatin1, 1},
	{utf16Bytes("A\tB\r\n\"x\ny\"\t😀\r\n\n", false, true), FormatTDF, EncodingUTF16, 1},
	{utf16Bytes("A,B\n1,2\n3,4", true, true), FormatCSV, EncodingUTF16, 2},
	{utf16Bytes("A,B\r\n1,2\r", true, false), FormatCSV, EncodingUTF16, 1},
	{[]byte{0xFF}, FormatCSV, EncodingUTF16, 0},
}

// TestRowCounterChunks: a file fed a byte at a time, or cut in two
// anywhere, counts as it does fed whole.
func TestRowCounterChunks(t *testing.T) {
	for _, s := range countSamples {
		whole := countChunked(t, s.in, s.format, s.enc, 0)
		if whole.Rows != s.rows || whole.Size != int64(len(s.in)) {
			t.Errorf("%s %s %q: %+v, want %d rows", s.format, s.enc, s.in, whole, s.rows)
		}
		if got := countChunked(t, s.in, s.format, s.enc, 1); !equalCounts(got, whole) {
			t.Errorf("%s %s %q: a byte at a time %+v, whole %+v", s.format, s.enc, s.in, got, whole)
		}
		for cut := range len(s.in) + 1 {
			c, _ := NewRowCounter(s.format, s.enc)
			_, _ = c.Write(s.in[:cut])
			_, _ = c.Write(s.in[cut:])
			if got := c.Result(); !equalCounts(got, whole) {
				t.Fatalf("%s %s %q cut at %d: %+v, whole %+v", s.format, s.enc, s.in, cut, got, whole)
			}
		}
	}
}

// TestRowCounterResultEnds: Result ends the file: later writes are
// ignored and later calls return the same, under the key of the counter's
// format and encoding.
func TestRowCounterResultEnds(t *testing.T) {
	c, err := NewRowCounter(FormatCSV, EncodingUTF8)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.Write([]byte("A,B\n1,\"2"))
	first := c.Result()
	if n, err := c.Write([]byte("\"\n3,4\n")); n != 6 || err != nil {
		t.Fatalf("Write after Result = %d, %v", n, err)
	}
	if again := c.Result(); !equalCounts(again, first) {
		t.Fatalf("Result again %+v, first %+v", again, first)
	}
	if !first.Malformed || first.Rows != 1 || first.Size != 8 {
		t.Fatalf("Result %+v: want malformed (a quoted cell left open), 1 row, 8 bytes", first)
	}
	if first.Key != "CSV/UTF-8" || !slices.Equal(first.Columns, []string{"A", "B"}) || first.NoColumns != "" {
		t.Fatalf("Result %+v: want the key CSV/UTF-8 and the columns A, B", first)
	}
}

// BenchmarkRowCounter counts 64 MiB of 64-byte CSV lines (as the
// benchmarks' generated files hold), fed in 1 MiB chunks as the hash read
// feeds it; quoted: every cell quoted; mixed: one cell of each line
// quoted; UTF-16: the same text in UTF-16.
func BenchmarkRowCounter(b *testing.B) {
	line := []byte("4000,Entity 12,123456,row 1234567                               \n")
	quoted := []byte("\"4000\",\"Entity 12\",\"123456\",\"row 1234567                      \"\n")
	mixed := []byte("4000,\"Entity, 12\",123456,row 1234567                             \n")
	for _, bc := range []struct {
		name string
		line []byte
		enc  Encoding
	}{
		{"plain", line, EncodingUTF8}, {"quoted", quoted, EncodingUTF8}, {"mixed", mixed, EncodingUTF8},
		{"UTF-16", utf16Bytes(string(line), true, false), EncodingUTF16},
	} {
		data := bytes.Repeat(bc.line, (64<<20)/len(bc.line))
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				c, _ := NewRowCounter(FormatCSV, bc.enc)
				for k := 0; k < len(data); k += 1 << 20 {
					_, _ = c.Write(data[k:min(k+1<<20, len(data))])
				}
				if c.Result().Rows != int64(len(data)/len(bc.line))-1 {
					b.Fatal("wrong count")
				}
			}
		})
	}
}

// TestRowCounterColumns: the header row's cells, decoded, or why they are
// unavailable; the rows are counted either way.
func TestRowCounterColumns(t *testing.T) {
	long := strings.Repeat("x", HeaderMaxBytes)
	cases := []struct {
		name   string
		in     []byte
		format Format
		enc    Encoding
		cols   []string
		no     string
		rows   int64
	}{
		{"UTF-8 BOM", []byte("\xEF\xBB\xBFA,\"B,\r\nC\"\n1,2\n"), FormatCSV, EncodingUTF8, []string{"A", "B,\nC"}, "", 1},
		{"Latin-1", []byte("Ma\xDFe|\x80\n1|2"), FormatPSV, EncodingLatin1, []string{"Maße", "€"}, "", 1},
		{"Latin-1 UTF-8 BOM", []byte("\xEF\xBB\xBFA\tB\n"), FormatTDF, EncodingLatin1, []string{"ï»¿A", "B"}, "", 0},
		{"UTF-16 LE", utf16Bytes("Ä,😀\r\n1,2\r\n", false, true), FormatCSV, EncodingUTF16, []string{"Ä", "😀"}, "", 1},
		{"UTF-16 BE no BOM", utf16Bytes("\n\nA\tB", true, false), FormatTDF, EncodingUTF16, []string{"A", "B"}, "", 0},
		{"fits", []byte(long[:HeaderMaxBytes-1] + "\n1\n2\n"), FormatCSV, EncodingUTF8, []string{long[:HeaderMaxBytes-1]}, "", 2},
		{"too long", []byte(long + "\n1\n2\n"), FormatCSV, EncodingUTF8, nil, NoColumnsTooLong, 2},
		{"too long, no line break", []byte(long + "y"), FormatCSV, EncodingUTF8, nil, NoColumnsTooLong, 0},
		{"invalid UTF-8", []byte("A,\xFF\n1,2\n"), FormatCSV, EncodingUTF8, nil, NoColumnsEncoding, 1},
		{"undefined Latin-1", []byte("A,\x81\n1,2\n"), FormatCSV, EncodingLatin1, nil, NoColumnsEncoding, 1},
		{"unpaired surrogate", []byte{0x00, 'A', 0xD8, 0x00, 0x00, '\n', 0x00, '1'}, FormatCSV, EncodingUTF16, nil, NoColumnsEncoding, 1},
		{"odd length", []byte{0x00, 'A', 0x00}, FormatCSV, EncodingUTF16, nil, NoColumnsEncoding, 0},
		{"bare quote", []byte("A\"B,C\n1,2\n"), FormatCSV, EncodingUTF8, nil, NoColumnsQuote, 1},
		{"empty", nil, FormatCSV, EncodingUTF8, []string{}, "", 0},
		{"BOM and blank lines", []byte("\xEF\xBB\xBF\r\n\n"), FormatCSV, EncodingUTF8, []string{}, "", 0},
	}
	for _, c := range cases {
		got := countChunked(t, c.in, c.format, c.enc, 0)
		if !slices.Equal(got.Columns, c.cols) || (got.Columns == nil) != (c.cols == nil) || got.NoColumns != c.no || got.Rows != c.rows {
			t.Errorf("%s: columns %q (%q), rows %d; want %q (%q), %d", c.name, got.Columns, got.NoColumns, got.Rows, c.cols, c.no, c.rows)
		}
	}
}
