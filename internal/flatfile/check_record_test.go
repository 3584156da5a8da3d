package flatfile

import (
	"errors"
	"strings"
	"testing"
)

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
