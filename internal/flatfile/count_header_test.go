package flatfile

import (
	"slices"
	"strings"
	"testing"
)

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
