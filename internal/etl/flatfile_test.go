package etl_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	put := func(u uint16) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		put(u)
	}
	return out
}

func TestCheckFile(t *testing.T) {
	type tc struct {
		name    string
		in      []byte
		format  etl.FileFormat
		enc     etl.Encoding
		problem etl.FileProblem // "" = no problem
		line    int64
		has     []string // in the error text
	}
	u8 := etl.EncodingUTF8
	cases := []tc{
		{"csv ok", []byte("Account,Amount\n4000,1\n4010,2\n"), etl.FormatCSV, u8, "", 0, nil},
		{"csv crlf no final newline", []byte("Account,Amount\r\n4000,1\r\n4010,2"), etl.FormatCSV, u8, "", 0, nil},
		{"quoted fields", []byte("A,B\n\"x,y\",\"say \"\"hi\"\"\"\n\"multi\nline\",2\n"), etl.FormatCSV, u8, "", 0, nil},
		{"blank lines skipped", []byte("A,B\n\n1,2\n\r\n3,4\n"), etl.FormatCSV, u8, "", 0, nil},
		{"utf8 bom", []byte("\xEF\xBB\xBFA,B\n1,2\n"), etl.FormatCSV, u8, "", 0, nil},
		{"psv", []byte("A|B\n1|2\n"), etl.FormatPSV, u8, "", 0, nil},
		{"tdf", []byte("A\tB\n1\t2\n"), etl.FormatTDF, u8, "", 0, nil},
		{"one column", []byte("Account\n4000\n"), etl.FormatCSV, u8, "", 0, nil},
		{"header only", []byte("Account,Amount\n"), etl.FormatCSV, u8, "", 0, nil},
		{"utf16 le bom", utf16Bytes("A,B\nMontréal,😀\n", false, true), etl.FormatCSV, etl.EncodingUTF16, "", 0, nil},
		{"utf16 be bom", utf16Bytes("A,B\nMontréal,😀\n", true, true), etl.FormatCSV, etl.EncodingUTF16, "", 0, nil},
		{"utf16 be no bom", utf16Bytes("A,B\nZürich,2\n", true, false), etl.FormatCSV, etl.EncodingUTF16, "", 0, nil},
		{"latin1", []byte("A,B\nZ\xFCrich,\x80 5\n"), etl.FormatCSV, etl.EncodingLatin1, "", 0, nil},

		{"empty", nil, etl.FormatCSV, u8, etl.ProblemEmpty, 0, []string{"empty"}},
		{"bom only", []byte("\xEF\xBB\xBF"), etl.FormatCSV, u8, etl.ProblemEmpty, 0, []string{"empty"}},
		{"utf16 bom only", []byte{0xFF, 0xFE}, etl.FormatCSV, etl.EncodingUTF16, etl.ProblemEmpty, 0, nil},
		{"no header", []byte("\nA,B\n1,2\n"), etl.FormatCSV, u8, etl.ProblemNoHeader, 1, []string{"line 1 is empty", "header"}},
		{"no header crlf", []byte("\r\nA,B\n"), etl.FormatCSV, u8, etl.ProblemNoHeader, 1, nil},
		{"wider row", []byte("A,B\n1,2\n1,2,3\n"), etl.FormatCSV, u8, etl.ProblemWidth, 3, []string{"line 3 has 3 fields but the header has 2", "quote"}},
		{"narrower row", []byte("A,B,C\n1,2,3\n\n1,2\n"), etl.FormatCSV, u8, etl.ProblemWidth, 4, []string{"line 4 has 2 fields", "1 field fewer"}},
		{"narrower last row without newline", []byte("A,B\n1,2\n1"), etl.FormatCSV, u8, etl.ProblemWidth, 3, nil},
		{"width after multiline quoted", []byte("A,B\n\"x\ny\",1\n1\n"), etl.FormatCSV, u8, etl.ProblemWidth, 4, nil},
		{"width of quoted row", []byte("A,B\n1,2\n\"a\",\"b\",\"c\"\n"), etl.FormatCSV, u8, etl.ProblemWidth, 3, nil},
		{"bare quote", []byte("A,B\n1,a\"b\n"), etl.FormatCSV, u8, etl.ProblemQuote, 2, []string{"line 2", "quote"}},
		{"text after closing quote", []byte("A,B\n1,\"a\"b\n"), etl.FormatCSV, u8, etl.ProblemQuote, 2, []string{"closing quote"}},
		{"unclosed quote", []byte("A,B\n1,\"abc\n2,3\n"), etl.FormatCSV, u8, etl.ProblemQuote, 2, []string{"never closed"}},
		{"csv that is psv", []byte("Account|Amount\n4000|1\n"), etl.FormatCSV, u8, etl.ProblemDelimiter, 1, []string{"PSV", "pipe"}},
		{"csv that is tdf", []byte("Account\tAmount\tCity\n4000\t1\tx\n"), etl.FormatCSV, u8, etl.ProblemDelimiter, 1, []string{"TDF", "tab"}},
		{"psv that is csv", []byte("Account,Amount\n"), etl.FormatPSV, u8, etl.ProblemDelimiter, 1, []string{`"CSV"`}},
		{"semicolons", []byte("Account;Amount\n4000;1\n"), etl.FormatCSV, u8, etl.ProblemDelimiter, 1, []string{"semicolon", "CSV (comma), PSV (pipe) and TDF (tab)"}},
		{"quoted comma in psv header is fine", []byte("\"Account,Name\"\nx\n"), etl.FormatPSV, u8, "", 0, nil},
		{"invalid utf8", []byte("A,B\n1,2\nZ\xFCrich,3\n"), etl.FormatCSV, u8, etl.ProblemEncoding, 3, []string{"line 3", "0xFC", "offset 9", "Windows Latin-1"}},
		{"utf16 declared utf8", utf16Bytes("A,B\n", false, true), etl.FormatCSV, u8, etl.ProblemEncoding, 1, []string{`"UTF-16"`}},
		{"utf16 without bom declared utf8", utf16Bytes("A,B\n1,2\n", false, false), etl.FormatCSV, u8, etl.ProblemEncoding, 1, []string{"NUL", `"UTF-16"`}},
		{"utf16 odd", append(utf16Bytes("A,B\n", false, true), 'x'), etl.FormatCSV, etl.EncodingUTF16, etl.ProblemEncoding, 2, []string{"odd number"}},
		{"utf16 lone low", append(utf16Bytes("A,B\n", false, true), 0x00, 0xDC), etl.FormatCSV, etl.EncodingUTF16, etl.ProblemEncoding, 2, []string{"low surrogate"}},
		{"utf16 unpaired high", append(utf16Bytes("A,B\n", false, true), 0x00, 0xD8, 'a', 0), etl.FormatCSV, etl.EncodingUTF16, etl.ProblemEncoding, 2, []string{"high surrogate"}},
		{"utf16 high at end", append(utf16Bytes("A,B\n", false, true), 0x00, 0xD8), etl.FormatCSV, etl.EncodingUTF16, etl.ProblemEncoding, 2, []string{"high surrogate"}},
		{"latin1 undefined", []byte("A,B\n1,\x81\n"), etl.FormatCSV, etl.EncodingLatin1, etl.ProblemEncoding, 2, []string{"0x81", "undefined"}},
		{"latin1 with utf8 bom", []byte("\xEF\xBB\xBFA,B\n"), etl.FormatCSV, etl.EncodingLatin1, etl.ProblemEncoding, 1, []string{`"UTF-8"`}},
		{"unknown format", []byte("A\n"), "XLSX", u8, etl.ProblemArgument, 0, nil},
		{"unknown encoding", []byte("A\n"), etl.FormatCSV, "utf-8", etl.ProblemArgument, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, rd := range []struct {
				name string
				r    func() io.Reader
			}{
				{"whole", func() io.Reader { return bytes.NewReader(c.in) }},
				{"one byte", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(c.in)) }},
			} {
				sum, err := etl.CheckFile(rd.r(), c.format, c.enc, 0)
				if c.problem == "" {
					if err != nil {
						t.Fatalf("%s: unexpected %v", rd.name, err)
					}
					if !sum.Complete || sum.Bytes != int64(len(c.in)) {
						t.Errorf("%s: summary %+v, want complete over %d bytes", rd.name, sum, len(c.in))
					}
					continue
				}
				var fe *etl.FileError
				if !errors.As(err, &fe) {
					t.Fatalf("%s: want a *FileError (%s), got %v", rd.name, c.problem, err)
				}
				if fe.Problem != c.problem || fe.Line != c.line {
					t.Errorf("%s: got %s at line %d (%v), want %s at line %d", rd.name, fe.Problem, fe.Line, fe, c.problem, c.line)
				}
				for _, s := range c.has {
					if !strings.Contains(fe.Error(), s) {
						t.Errorf("%s: %q does not contain %q", rd.name, fe.Error(), s)
					}
				}
			}
		})
	}
}

func TestCheckFileSummaryAndLimit(t *testing.T) {
	in := []byte("A,B\n1,2\n3,4\n5,6")
	sum, err := etl.CheckFile(bytes.NewReader(in), etl.FormatCSV, etl.EncodingUTF8, 0)
	if err != nil || sum.Columns != 2 || sum.Rows != 3 || sum.Lines != 4 || !sum.Complete || sum.Bytes != int64(len(in)) {
		t.Fatalf("got %+v, %v", sum, err)
	}
	// The limit cuts line 3: lines 1-2 are checked, the rest is not judged.
	bad := []byte("A,B\n1,2\n3,4,5,6,7,8\n")
	sum, err = etl.CheckFile(bytes.NewReader(bad), etl.FormatCSV, etl.EncodingUTF8, 10)
	if err != nil || sum.Complete || sum.Bytes != 10 {
		t.Fatalf("limit 10: got %+v, %v; want an incomplete check of 10 bytes and no problem", sum, err)
	}
	// Exactly the file's size: complete.
	sum, err = etl.CheckFile(bytes.NewReader(in), etl.FormatCSV, etl.EncodingUTF8, int64(len(in)))
	if err != nil || !sum.Complete {
		t.Fatalf("limit = size: got %+v, %v", sum, err)
	}
	// A problem before the limit is found; a multi-byte character cut by
	// the limit is not a problem.
	_, err = etl.CheckFile(bytes.NewReader(append(bad, "9,9\n"...)), etl.FormatCSV, etl.EncodingUTF8, 20)
	if err == nil {
		t.Fatal("limit 20: the wide line 3 ends before the limit, want a problem")
	}
	euro := []byte("A\n\xE2\x82\xAC\n")
	if sum, err = etl.CheckFile(bytes.NewReader(euro), etl.FormatCSV, etl.EncodingUTF8, 4); err != nil || sum.Complete {
		t.Fatalf("limit inside a character: %+v %v", sum, err)
	}
	u16 := utf16Bytes("A,B\n1,2\n", false, true)
	if sum, err = etl.CheckFile(bytes.NewReader(u16), etl.FormatCSV, etl.EncodingUTF16, 5); err != nil || sum.Complete {
		t.Fatalf("utf16 limit at an odd offset: %+v %v", sum, err)
	}
}

// csvVerdict is the reference: encoding/csv's reading of the same bytes
// (UTF-8, no CR), with the checker's extra rules (empty file, empty first
// line, one-column header split by another delimiter).
func csvVerdict(in []byte, comma rune) (problem etl.FileProblem, line, lineTo int64) {
	if len(in) == 0 {
		return etl.ProblemEmpty, 0, 0
	}
	if in[0] == '\n' {
		return etl.ProblemNoHeader, 1, 1
	}
	cr := csv.NewReader(bytes.NewReader(in))
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cols := -1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return "", 0, 0
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				// The checker names the line a never-closed quoted field
				// opens on; encoding/csv the line where the file ends.
				return etl.ProblemQuote, int64(pe.StartLine), int64(pe.Line)
			}
			return etl.ProblemUnreadable, 0, 0
		}
		l, _ := cr.FieldPos(0)
		if cols < 0 {
			cols = len(rec)
			continue
		}
		if len(rec) != cols {
			return etl.ProblemWidth, int64(l), int64(l)
		}
	}
}

func checkAgainstCSV(t *testing.T, in []byte) {
	t.Helper()
	if !utf8Clean(in) {
		return
	}
	for _, f := range etl.FileFormats {
		want, wantLine, wantTo := csvVerdict(in, f.Delimiter())
		sum, err := etl.CheckFile(bytes.NewReader(in), f, etl.EncodingUTF8, 0)
		var got etl.FileProblem
		var gotLine int64
		var fe *etl.FileError
		if errors.As(err, &fe) {
			got, gotLine = fe.Problem, fe.Line
		} else if err != nil {
			t.Fatalf("%s %q: not a FileError: %v", f, in, err)
		}
		if got == etl.ProblemDelimiter && (want == "" || want == etl.ProblemWidth || (want == etl.ProblemQuote && wantLine > 1)) {
			continue // the checker's own rule, judged on the header alone
		}
		if got != want || gotLine < wantLine || gotLine > wantTo {
			t.Fatalf("%s %q: checker says %q at line %d (%v), encoding/csv %q at line %d", f, in, got, gotLine, err, want, wantLine)
		}
		if err == nil && (!sum.Complete || sum.Bytes != int64(len(in))) {
			t.Fatalf("%s %q: summary %+v", f, in, sum)
		}
	}
}

// utf8Clean: valid UTF-8 without CR, NUL or a BOM: where encoding/csv and
// the checker are meant to agree exactly.
func utf8Clean(in []byte) bool {
	return bytes.IndexByte(in, '\r') < 0 && bytes.IndexByte(in, 0) < 0 && !bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) && validUTF8(in)
}

func validUTF8(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

var fileSeeds = []string{
	"", "\n", "A,B\n1,2\n", "A,B\n1,2,3\n", "A|B\n1|2\n", "A\tB\n1\t2", "A,B\n\"x\ny\",\"q\"\"q\"\n1,2\n",
	"A,B\n1,a\"b\n", "A,B\n\"a\"b,1\n", "A,B\n\"abc", "A;B\n1;2\n", "A\n\n\nB\n", "\"A,B\"\n1\n",
	"A,B\r\n1,2\r\n", "\r\nA\n", "A,B\n1,2\r", "A,\"\"\n,\n", "\xEF\xBB\xBFA,B\n1,2\n", "A,B\nZ\xFCrich,1\n",
	"\xFF\xFEA\x00,\x00B\x00\n\x00", "A,B\n\"\"\n", "\"\"\"\"\n", "A\n\"a\"\r\"\n",
}

func TestCheckFileAgainstCSV(t *testing.T) {
	for _, s := range fileSeeds {
		checkAgainstCSV(t, []byte(s))
	}
	// Every way of joining a few tokens, up to length 5.
	tokens := []string{"a", ",", "|", "\t", "\"", "\n"}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		checkAgainstCSV(t, []byte(prefix))
		if depth == 0 {
			return
		}
		for _, tk := range tokens {
			gen(prefix+tk, depth-1)
		}
	}
	gen("", 5)
}

// FuzzCheckFile: never panics; the same verdict whatever the read sizes;
// a limit never invents a problem past it; and on clean UTF-8, the verdict
// of encoding/csv.
func FuzzCheckFile(f *testing.F) {
	for _, s := range fileSeeds {
		f.Add([]byte(s), uint8(0), uint8(0), uint16(0))
	}
	f.Add(utf16Bytes("A,B\n1,2\n", false, true), uint8(0), uint8(1), uint16(7))
	f.Add([]byte("A,B\n1,\x81\n"), uint8(0), uint8(2), uint16(3))
	f.Fuzz(func(t *testing.T, in []byte, fmtIdx, encIdx uint8, limit uint16) {
		format := etl.FileFormats[int(fmtIdx)%len(etl.FileFormats)]
		enc := etl.Encodings[int(encIdx)%len(etl.Encodings)]
		sum1, err1 := etl.CheckFile(bytes.NewReader(in), format, enc, 0)
		sum2, err2 := etl.CheckFile(iotest.HalfReader(iotest.OneByteReader(bytes.NewReader(in))), format, enc, 0)
		if fmt.Sprint(err1) != fmt.Sprint(err2) || *sum1 != *sum2 {
			t.Fatalf("read sizes change the verdict: %+v %v / %+v %v", sum1, err1, sum2, err2)
		}
		if err1 == nil && (!sum1.Complete || sum1.Bytes != int64(len(in))) {
			t.Fatalf("no problem but an incomplete summary %+v", sum1)
		}
		if limit > 0 {
			sum3, err3 := etl.CheckFile(bytes.NewReader(in), format, enc, int64(limit))
			if int(limit) >= len(in) {
				if fmt.Sprint(err3) != fmt.Sprint(err1) {
					t.Fatalf("limit %d >= size %d: %v, want %v", limit, len(in), err3, err1)
				}
			} else {
				if err3 == nil && (sum3.Complete || sum3.Bytes != int64(limit)) {
					t.Fatalf("limit %d < size %d: summary %+v", limit, len(in), sum3)
				}
				var fe *etl.FileError
				if err3 != nil && errors.As(err3, &fe) && fe.Offset > int64(limit) {
					t.Fatalf("limit %d: problem past it: %v", limit, err3)
				}
				if err3 != nil && err1 == nil {
					t.Fatalf("limit %d: %v, but the whole file has no problem", limit, err3)
				}
			}
		}
		if enc == etl.EncodingUTF8 {
			checkAgainstCSV(t, in)
		}
	})
}

// benchFile is a realistic CSV: a header and rows of mixed fields, some
// quoted.
func benchFile(size int) []byte {
	var b bytes.Buffer
	b.WriteString("Account,Department,Period,Amount,Comment\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%d,Dept %d,2024-%02d,%d.%02d,", 4000+i%500, i%37, 1+i%12, i*7%100000, i%100)
		if i%10 == 0 {
			b.WriteString("\"note, with comma\"\n")
		} else {
			b.WriteString("plain note\n")
		}
	}
	return b.Bytes()
}

func BenchmarkCheckFile(b *testing.B) {
	data := benchFile(64 << 20)
	latin := bytes.ReplaceAll(data, []byte("Dept"), []byte("D\xE9pt"))
	head := data[:bytes.LastIndexByte(data[:16<<20], '\n')+1]
	u16 := utf16Bytes(string(head), false, true)
	for _, c := range []struct {
		name string
		in   []byte
		enc  etl.Encoding
	}{
		{"UTF-8", data, etl.EncodingUTF8},
		{"Latin-1", latin, etl.EncodingLatin1},
		{"UTF-16", u16, etl.EncodingUTF16},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := etl.CheckFile(bytes.NewReader(c.in), etl.FormatCSV, c.enc, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
