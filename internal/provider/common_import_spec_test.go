package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// TestRowsCSVSHA256Golden: rows over the JSON limit are sent as a CSV file
// and content_sha256 is that file's hash, with a warning on the rows. The
// CSV encoding is pinned on small rows planned over a lowered limit (etl's
// TestPayloadOverTheLimitGolden pins rows just over the real one).
func TestRowsCSVSHA256Golden(t *testing.T) {
	sum, diags := planRowsHash(goldenRowsList(t, goldenRows), path.Root("rows"), 1)
	if want := "5e9bfe918aa3559f339677c357561dd1e3e9dfeb2b206549a9a004c7743943aa"; sum.ValueString() != want {
		t.Errorf("CSV of the golden rows: SHA-256 %s, want %s", sum.ValueString(), want)
	}
	if len(diags) != 2 || diags[1].Summary() != rowsAsFileSummary {
		t.Errorf("want the CR LF warning, then the rows-as-file warning: %v", diags)
	}
}

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

func TestWriteOnlyDataHelpers(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("A"), cells("1"))
	none := importSpec{Rows: types.ListNull(rows.ElementType(ctx))}

	if l, at := (writeOnlyData{rows: rows}).rowsOf(none); !l.Equal(rows) || !at.Equal(path.Root("rows_wo")) {
		t.Errorf("rows_wo: %v at %s", l, at)
	}
	if l, at := (writeOnlyData{}).rowsOf(importSpec{Rows: rows}); !l.Equal(rows) || !at.Equal(path.Root("rows")) {
		t.Errorf("rows: %v at %s", l, at)
	}
	if l, _ := (writeOnlyData{}).rowsOf(none); !l.IsNull() {
		t.Errorf("no rows: %v", l)
	}

	f := fileModel{Content: types.StringNull(), ContentWO: types.StringNull()}
	if v, name := (writeOnlyData{content: types.StringValue("A\n1\n")}).withContent(f).inline(); v.ValueString() != "A\n1\n" || name != "content_wo" {
		t.Errorf("content_wo: %v %s", v, name)
	}
	f.Content = types.StringValue("B\n2\n")
	if v, name := f.inline(); v.ValueString() != "B\n2\n" || name != "content" {
		t.Errorf("content: %v %s", v, name)
	}

	withInput := writeOnlyData{inputs: map[string]types.String{"Load Actuals": types.StringValue("A\n1\n")}}
	if c := withInput.forInput("Load Actuals"); c.content.ValueString() != "A\n1\n" || !c.rows.IsNull() {
		t.Errorf("forInput: %+v", c)
	}
	if c := withInput.forInput("Load Rates"); !c.content.IsNull() {
		t.Errorf("forInput of an input without content_wo: %+v", c)
	}

	// From a configuration: rows_wo, and file.content_wo of a null file.
	typ := importType()
	cfg := tfsdk.Config{Schema: importSchema(t), Raw: tfValue(t, typ, map[string]any{"template_id": "1", "rows_wo": [][]string{{"A"}, {"1"}}})}
	wo, d := readWriteOnly(ctx, cfg)
	if d.HasError() || len(wo.rows.Elements()) != 2 || !wo.content.IsNull() {
		t.Fatalf("readWriteOnly: %+v %v", wo, d)
	}
	cfg.Raw = tfValue(t, typ, map[string]any{"template_id": "1", "file": map[string]any{"content_wo": "A\n1\n", "format": "CSV"}})
	if wo, d = readWriteOnly(ctx, cfg); d.HasError() || wo.content.ValueString() != "A\n1\n" || !wo.rows.IsNull() {
		t.Fatalf("readWriteOnly: %+v %v", wo, d)
	}
}
