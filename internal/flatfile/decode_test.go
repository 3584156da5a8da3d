package flatfile

import "testing"

// TestCheckFileDecoding: byte order marks and bytes that do not decode
// in the declared encoding.
func TestCheckFileDecoding(t *testing.T) {
	u8 := EncodingUTF8
	runCheckFileCases(t, []checkFileCase{
		{"utf8 bom", []byte("\xEF\xBB\xBFA,B\n1,2\n"), FormatCSV, u8, "", 0, nil},
		{"utf16 le bom", utf16Bytes("A,B\nMontréal,😀\n", false, true), FormatCSV, EncodingUTF16, "", 0, nil},
		{"utf16 be bom", utf16Bytes("A,B\nMontréal,😀\n", true, true), FormatCSV, EncodingUTF16, "", 0, nil},
		{"utf16 be no bom", utf16Bytes("A,B\nZürich,2\n", true, false), FormatCSV, EncodingUTF16, "", 0, nil},
		{"latin1", []byte("A,B\nZ\xFCrich,\x80 5\n"), FormatCSV, EncodingLatin1, "", 0, nil},
		{"bom only", []byte("\xEF\xBB\xBF"), FormatCSV, u8, ProblemEmpty, 0, []string{"empty"}},
		{"utf16 bom only", []byte{0xFF, 0xFE}, FormatCSV, EncodingUTF16, ProblemEmpty, 0, nil},
		{"invalid utf8", []byte("A,B\n1,2\nZ\xFCrich,3\n"), FormatCSV, u8, ProblemEncoding, 3, []string{"line 3", "0xFC", "offset 9", "Windows Latin-1"}},
		{"utf16 declared utf8", utf16Bytes("A,B\n", false, true), FormatCSV, u8, ProblemEncoding, 1, []string{`"UTF-16"`}},
		{"utf16 without bom declared utf8", utf16Bytes("A,B\n1,2\n", false, false), FormatCSV, u8, ProblemEncoding, 1, []string{"NUL", `"UTF-16"`}},
		{"utf16 odd", append(utf16Bytes("A,B\n", false, true), 'x'), FormatCSV, EncodingUTF16, ProblemEncoding, 2, []string{"odd number"}},
		{"utf16 lone low", append(utf16Bytes("A,B\n", false, true), 0x00, 0xDC), FormatCSV, EncodingUTF16, ProblemEncoding, 2, []string{"low surrogate"}},
		{"utf16 unpaired high", append(utf16Bytes("A,B\n", false, true), 0x00, 0xD8, 'a', 0), FormatCSV, EncodingUTF16, ProblemEncoding, 2, []string{"high surrogate"}},
		{"utf16 high at end", append(utf16Bytes("A,B\n", false, true), 0x00, 0xD8), FormatCSV, EncodingUTF16, ProblemEncoding, 2, []string{"high surrogate"}},
		{"latin1 undefined", []byte("A,B\n1,\x81\n"), FormatCSV, EncodingLatin1, ProblemEncoding, 2, []string{"0x81", "undefined"}},
		{"latin1 with utf8 bom", []byte("\xEF\xBB\xBFA,B\n"), FormatCSV, EncodingLatin1, ProblemEncoding, 1, []string{`"UTF-8"`}},
		{"unknown encoding", []byte("A\n"), FormatCSV, "utf-8", ProblemArgument, 0, nil},
	})
}

// TestFirstUndefined1252: the bytes Windows-1252 leaves undefined, found
// eight bytes at a time and one by one.
func TestFirstUndefined1252(t *testing.T) {
	for in, want := range map[string]int{
		"plain ascii text": -1, "0123456789\x81": 10, "\x8D": 0, "Z\xFCrich \x80 \x90": 9, "\x8F\x9D": 0,
	} {
		if got := firstUndefined1252([]byte(in)); got != want {
			t.Errorf("firstUndefined1252(%q) = %d, want %d", in, got, want)
		}
	}
}
