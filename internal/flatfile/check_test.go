package flatfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCheckFileSummaryAndLimit(t *testing.T) {
	in := []byte("A,B\n1,2\n3,4\n5,6")
	sum, err := CheckFile(bytes.NewReader(in), FormatCSV, EncodingUTF8, 0)
	if err != nil || sum.Columns != 2 || sum.Rows != 3 || sum.Lines != 4 || !sum.Complete || sum.Bytes != int64(len(in)) {
		t.Fatalf("got %+v, %v", sum, err)
	}
	// The limit cuts line 3: lines 1-2 are checked, the rest is not judged.
	bad := []byte("A,B\n1,2\n3,4,5,6,7,8\n")
	sum, err = CheckFile(bytes.NewReader(bad), FormatCSV, EncodingUTF8, 10)
	if err != nil || sum.Complete || sum.Bytes != 10 {
		t.Fatalf("limit 10: got %+v, %v; want an incomplete check of 10 bytes and no problem", sum, err)
	}
	// Exactly the file's size: complete.
	sum, err = CheckFile(bytes.NewReader(in), FormatCSV, EncodingUTF8, int64(len(in)))
	if err != nil || !sum.Complete {
		t.Fatalf("limit = size: got %+v, %v", sum, err)
	}
	// A problem before the limit is found; a multi-byte character cut by
	// the limit is not a problem.
	_, err = CheckFile(bytes.NewReader(append(bad, "9,9\n"...)), FormatCSV, EncodingUTF8, 20)
	if err == nil {
		t.Fatal("limit 20: the wide line 3 ends before the limit, want a problem")
	}
	euro := []byte("A\n\xE2\x82\xAC\n")
	if sum, err = CheckFile(bytes.NewReader(euro), FormatCSV, EncodingUTF8, 4); err != nil || sum.Complete {
		t.Fatalf("limit inside a character: %+v %v", sum, err)
	}
	u16 := utf16Bytes("A,B\n1,2\n", false, true)
	if sum, err = CheckFile(bytes.NewReader(u16), FormatCSV, EncodingUTF16, 5); err != nil || sum.Complete {
		t.Fatalf("utf16 limit at an odd offset: %+v %v", sum, err)
	}
}

// csvVerdict is the reference: encoding/csv's reading of the same bytes
// (UTF-8), with the checker's extra rules (empty file, empty first
// line, one-column header split by another delimiter).
func csvVerdict(in []byte, comma rune) (problem FileProblem, line, lineTo int64) {
	if len(in) == 0 {
		return ProblemEmpty, 0, 0
	}
	if first, _, _ := bytes.Cut(in, []byte("\n")); len(bytes.TrimSuffix(first, []byte("\r"))) == 0 {
		return ProblemNoHeader, 1, 1 // an empty first line, or a CR alone
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
				return ProblemQuote, int64(pe.StartLine), int64(pe.Line)
			}
			return ProblemUnreadable, 0, 0
		}
		l, _ := cr.FieldPos(0)
		if cols < 0 {
			cols = len(rec)
			continue
		}
		if len(rec) != cols {
			return ProblemWidth, int64(l), int64(l)
		}
	}
}

func checkAgainstCSV(t *testing.T, in []byte) {
	t.Helper()
	if !utf8Clean(in) {
		return
	}
	for _, f := range Formats {
		want, wantLine, wantTo := csvVerdict(in, f.Delimiter())
		sum, err := CheckFile(bytes.NewReader(in), f, EncodingUTF8, 0)
		var got FileProblem
		var gotLine int64
		var fe *FileError
		if errors.As(err, &fe) {
			got, gotLine = fe.Problem, fe.Line
		} else if err != nil {
			t.Fatalf("%s %q: not a FileError: %v", f, in, err)
		}
		if got == ProblemDelimiter && (want == "" || want == ProblemWidth || (want == ProblemQuote && wantLine > 1)) {
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

// utf8Clean: valid UTF-8 without NUL or a BOM: where encoding/csv and
// the checker are meant to agree exactly.
func utf8Clean(in []byte) bool {
	return bytes.IndexByte(in, 0) < 0 && !bytes.HasPrefix(in, []byte("\xEF\xBB\xBF")) && validUTF8(in)
}

func validUTF8(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

var fileSeeds = []string{
	"", "\n", "A,B\n1,2\n", "A,B\n1,2,3\n", "A|B\n1|2\n", "A\tB\n1\t2", "A,B\n\"x\ny\",\"q\"\"q\"\n1,2\n",
	"A,B\n1,a\"b\n", "A,B\n\"a\"b,1\n", "A,B\n\"abc", "A;B\n1;2\n", "A\n\n\nB\n", "\"A,B\"\n1\n",
	"A,B\r\n1,2\r\n", "\r\nA\n", "A,B\n1,2\r", "A,\"\"\n,\n", "\xEF\xBB\xBFA,B\n1,2\n", "A,B\nZ\xFCrich,1\n",
	"\xFF\xFEA\x00,\x00B\x00\n\x00", "A,B\n\"\"\n", "\"\"\"\"\n", "A\n\"a\"\r\"\n", "0,0\n0\n00",
}

func TestCheckFileAgainstCSV(t *testing.T) {
	for _, s := range fileSeeds {
		checkAgainstCSV(t, []byte(s))
	}
	// Every way of joining a few tokens, up to length 5.
	tokens := []string{"a", ",", "|", "\t", "\"", "\n", "\r"}
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
		format := Formats[int(fmtIdx)%len(Formats)]
		enc := Encodings[int(encIdx)%len(Encodings)]
		sum1, err1 := CheckFile(bytes.NewReader(in), format, enc, 0)
		sum2, err2 := CheckFile(iotest.HalfReader(iotest.OneByteReader(bytes.NewReader(in))), format, enc, 0)
		if fmt.Sprint(err1) != fmt.Sprint(err2) || *sum1 != *sum2 {
			t.Fatalf("read sizes change the verdict: %+v %v / %+v %v", sum1, err1, sum2, err2)
		}
		if err1 == nil && (!sum1.Complete || sum1.Bytes != int64(len(in))) {
			t.Fatalf("no problem but an incomplete summary %+v", sum1)
		}
		if limit > 0 {
			sum3, err3 := CheckFile(bytes.NewReader(in), format, enc, int64(limit))
			if int(limit) >= len(in) {
				if fmt.Sprint(err3) != fmt.Sprint(err1) {
					t.Fatalf("limit %d >= size %d: %v, want %v", limit, len(in), err3, err1)
				}
			} else {
				if err3 == nil && (sum3.Complete || sum3.Bytes != int64(limit)) {
					t.Fatalf("limit %d < size %d: summary %+v", limit, len(in), sum3)
				}
				var fe *FileError
				if err3 != nil && errors.As(err3, &fe) && fe.Offset > int64(limit) {
					t.Fatalf("limit %d: problem past it: %v", limit, err3)
				}
				if err3 != nil && err1 == nil {
					t.Fatalf("limit %d: %v, but the whole file has no problem", limit, err3)
				}
			}
		}
		if enc == EncodingUTF8 {
			checkAgainstCSV(t, in)
		}
	})
}

func BenchmarkCheckFile(b *testing.B) {
	data := bytes.Repeat([]byte("4000,Dept 12,2024-05,123.45,plain note\n4010,Dept 3,2024-06,9.10,\"note, with comma\"\n"), (64<<20)/79)
	latin := bytes.ReplaceAll(data, []byte("Dept"), []byte("D\xE9pt"))
	head := data[:bytes.LastIndexByte(data[:16<<20], '\n')+1]
	u16 := utf16Bytes(string(head), false, true)
	for _, c := range []struct {
		name string
		in   []byte
		enc  Encoding
	}{
		{"UTF-8", data, EncodingUTF8},
		{"Latin-1", latin, EncodingLatin1},
		{"UTF-16", u16, EncodingUTF16},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CheckFile(bytes.NewReader(c.in), FormatCSV, c.enc, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCheckHeaderDelimiter: a header of one column that holds another
// format's delimiter is a delimiter problem naming the format it looks
// like; a semicolon names no format; a header in the right format is fine.
func TestCheckHeaderDelimiter(t *testing.T) {
	cases := []struct {
		format       Format
		content      string
		looksLike    Format
		detail, fix  string
		wantNoIssues bool
	}{
		{FormatCSV, "Account|Amount\n4000|1\n", FormatPSV, "has no comma (,)", `set the format to "PSV"`, false},
		{FormatPSV, "Account\tAmount\n4000\t1\n", FormatTDF, "has no pipe (|)", `set the format to "TDF"`, false},
		{FormatCSV, "Account;Amount\n4000;1\n", "", "has no comma (,)", "CSV (comma), PSV (pipe) and TDF (tab)", false},
		{FormatTDF, "Account\tAmount\n4000\t1\n", "", "", "", true},
	}
	for _, tc := range cases {
		_, err := CheckFile(strings.NewReader(tc.content), tc.format, EncodingUTF8, 0)
		if tc.wantNoIssues {
			if err != nil {
				t.Errorf("%s %q: %v", tc.format, tc.content, err)
			}
			continue
		}
		var fe *FileError
		if !errors.As(err, &fe) || fe.Problem != ProblemDelimiter || fe.LooksLike != tc.looksLike ||
			!strings.Contains(fe.Detail, tc.detail) || !strings.Contains(fe.Fix, tc.fix) {
			t.Errorf("%s %q: %+v, want a delimiter problem (%q, %q, looks like %q)", tc.format, tc.content, err, tc.detail, tc.fix, tc.looksLike)
		}
	}
	if delimName('x') != `'x'` {
		t.Errorf("an unknown delimiter is named %s", delimName('x'))
	}
}

// TestCheckFileParsing: quoting, the header, blank lines and widths.
func TestCheckFileParsing(t *testing.T) {
	u8 := EncodingUTF8
	runCheckFileCases(t, []checkFileCase{
		{"csv ok", []byte("Account,Amount\n4000,1\n4010,2\n"), FormatCSV, u8, "", 0, nil},
		{"csv crlf no final newline", []byte("Account,Amount\r\n4000,1\r\n4010,2"), FormatCSV, u8, "", 0, nil},
		{"quoted fields", []byte("A,B\n\"x,y\",\"say \"\"hi\"\"\"\n\"multi\nline\",2\n"), FormatCSV, u8, "", 0, nil},
		{"blank lines skipped", []byte("A,B\n\n1,2\n\r\n3,4\n"), FormatCSV, u8, "", 0, nil},
		{"psv", []byte("A|B\n1|2\n"), FormatPSV, u8, "", 0, nil},
		{"tdf", []byte("A\tB\n1\t2\n"), FormatTDF, u8, "", 0, nil},
		{"one column", []byte("Account\n4000\n"), FormatCSV, u8, "", 0, nil},
		{"header only", []byte("Account,Amount\n"), FormatCSV, u8, "", 0, nil},
		{"empty", nil, FormatCSV, u8, ProblemEmpty, 0, []string{"empty"}},
		{"no header", []byte("\nA,B\n1,2\n"), FormatCSV, u8, ProblemNoHeader, 1, []string{"line 1 is empty", "header"}},
		{"no header crlf", []byte("\r\nA,B\n"), FormatCSV, u8, ProblemNoHeader, 1, nil},
		{"wider row", []byte("A,B\n1,2\n1,2,3\n"), FormatCSV, u8, ProblemWidth, 3, []string{"line 3 has 3 fields but the header has 2", "quote"}},
		{"narrower row", []byte("A,B,C\n1,2,3\n\n1,2\n"), FormatCSV, u8, ProblemWidth, 4, []string{"line 4 has 2 fields", "1 field fewer"}},
		{"narrower last row without newline", []byte("A,B\n1,2\n1"), FormatCSV, u8, ProblemWidth, 3, nil},
		{"width after multiline quoted", []byte("A,B\n\"x\ny\",1\n1\n"), FormatCSV, u8, ProblemWidth, 4, nil},
		{"width of quoted row", []byte("A,B\n1,2\n\"a\",\"b\",\"c\"\n"), FormatCSV, u8, ProblemWidth, 3, nil},
		{"bare quote", []byte("A,B\n1,a\"b\n"), FormatCSV, u8, ProblemQuote, 2, []string{"line 2", "quote"}},
		{"text after closing quote", []byte("A,B\n1,\"a\"b\n"), FormatCSV, u8, ProblemQuote, 2, []string{"closing quote"}},
		{"unclosed quote", []byte("A,B\n1,\"abc\n2,3\n"), FormatCSV, u8, ProblemQuote, 2, []string{"never closed"}},
		{"csv that is psv", []byte("Account|Amount\n4000|1\n"), FormatCSV, u8, ProblemDelimiter, 1, []string{"PSV", "pipe"}},
		{"csv that is tdf", []byte("Account\tAmount\tCity\n4000\t1\tx\n"), FormatCSV, u8, ProblemDelimiter, 1, []string{"TDF", "tab"}},
		{"psv that is csv", []byte("Account,Amount\n"), FormatPSV, u8, ProblemDelimiter, 1, []string{`"CSV"`}},
		{"semicolons", []byte("Account;Amount\n4000;1\n"), FormatCSV, u8, ProblemDelimiter, 1, []string{"semicolon", "CSV (comma), PSV (pipe) and TDF (tab)"}},
		{"quoted comma in psv header is fine", []byte("\"Account,Name\"\nx\n"), FormatPSV, u8, "", 0, nil},
		{"unknown format", []byte("A\n"), "XLSX", u8, ProblemArgument, 0, nil},
	})
}
