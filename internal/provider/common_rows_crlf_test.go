package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// TestRowsCRLFWarning: the first cell holding a CR LF is a warning on that
// cell, naming its row and column, what becomes of the CR LF as JSON and
// as a CSV file (or csv_encode), and the fix; for rows_wo nothing of the
// rows is quoted; rows without one, a lone LF or CR included, warn of
// nothing.
func TestRowsCRLFWarning(t *testing.T) {
	rows := [][]string{{"Account-hdr", "Memo-hdr"}, {"4000", "plain"}, {"4001", "wo-secret\r\nline 2"}, {"4002", "\r\n"}}
	common := []string{"holds a CR LF line break", "as do 1 more cells", "Sent as a JSON body (for rows", "the CR LF is kept",
		"sent as a CSV file (rows.csv, for rows over that limit), or made into CSV with provider::etl::csv_encode, it is read as LF",
		"use LF line breaks in", `replace(cell, "\r\n", "\n")`}
	for _, tc := range []struct {
		attr  string
		has   []string
		never []string
	}{
		{"rows", []string{`rows[2][1] (row 2, column 2, "Memo-hdr")`, "use LF line breaks in rows's cells"}, []string{"wo-secret"}},
		{"rows_wo", []string{"rows_wo[2][1] (row 2, column 2)", "use LF line breaks in rows_wo's cells"}, []string{"wo-secret", "Memo-hdr", "Account-hdr", "4001"}},
	} {
		diags := rowsCRLFWarning(rows, path.Root(tc.attr), etl.MaxDataBodyBytes)
		if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || diags[0].Summary() != rowsCRLFSummary {
			t.Fatalf("%s: %v, want one warning", tc.attr, diags)
		}
		withPath, ok := diags[0].(diag.DiagnosticWithPath)
		if want := path.Root(tc.attr).AtListIndex(2).AtListIndex(1); !ok || !withPath.Path().Equal(want) {
			t.Errorf("%s: the warning is not on %s: %v", tc.attr, want, diags[0])
		}
		detail := diags[0].Detail()
		for _, s := range append(tc.has, common...) {
			if !strings.Contains(detail, s) {
				t.Errorf("%s: detail %q lacks %q", tc.attr, detail, s)
			}
		}
		for _, s := range tc.never {
			if strings.Contains(detail, s) {
				t.Errorf("%s: detail %q quotes %q", tc.attr, detail, s)
			}
		}
	}
	header := rowsCRLFWarning([][]string{{"A\r\nB"}, {"1"}}, path.Root("rows"), etl.MaxDataBodyBytes)
	if len(header) != 1 || !strings.Contains(header[0].Detail(), "rows[0][0] (the header row, column 1)") || strings.Contains(header[0].Detail(), "more cells") {
		t.Errorf("a header cell: %v", header)
	}
	if d := rowsCRLFWarning([][]string{{"A", "B"}, {"a\nb", "a\rb"}}, path.Root("rows"), etl.MaxDataBodyBytes); len(d) != 0 {
		t.Errorf("no CR LF: %v", d)
	}
}

// TestPlanRowsHashWarnsCRLF: planning rows (or rows_wo) gives the CR LF
// warning beside the hash, whatever the rows' size.
func TestPlanRowsHashWarnsCRLF(t *testing.T) {
	for _, attr := range []string{"rows", "rows_wo"} {
		l := rowsValue(t, cells("Account", "Memo"), cells("4000", "a\r\nb"))
		sum, diags := planRowsHash(l, path.Root(attr), etl.MaxDataBodyBytes)
		if sum.IsUnknown() || len(diags) != 1 || diags[0].Summary() != rowsCRLFSummary ||
			!strings.Contains(diags[0].Detail(), attr+"[1][1] (row 1, column 2") {
			t.Errorf("%s: %v, %v", attr, sum, diags)
		}
	}
	if _, diags := planRowsHash(rowsValue(t, cells("Account"), cells("a\nb")), path.Root("rows"), etl.MaxDataBodyBytes); len(diags) != 0 {
		t.Errorf("rows without a CR LF: %v", diags)
	}
}
