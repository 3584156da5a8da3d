package flatfile

import "testing"

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
