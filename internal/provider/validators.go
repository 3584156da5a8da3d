package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// maxRowDiagnostics bounds how many ragged rows are reported one by one.
const maxRowDiagnostics = 10

// rowsValidator checks rows at plan time: at least a header row, a header
// with at least one column, and every row as wide as the header. Unknown
// rows or cells are skipped (checked again once known).
type rowsValidator struct{}

func (rowsValidator) Description(context.Context) string {
	return "must hold a header row of column names first, and every row must have as many cells as the header"
}
func (v rowsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (rowsValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	if len(elems) == 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Empty rows",
			"rows is empty: the first row must be the header row of column names, followed by the data rows, "+
				`for example [["Account", "Amount"], ["4000", "100"]].`)
		return
	}
	width := func(i int) (int, bool) {
		l, ok := elems[i].(types.List)
		if !ok || l.IsUnknown() {
			return 0, false
		}
		if l.IsNull() {
			return -1, true
		}
		return len(l.Elements()), true
	}
	header, ok := width(0)
	if !ok {
		return
	}
	if header <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(0), "Empty header row",
			"The header row (rows[0]) has no column names: the first row must name the template's columns, for example [\"Account\", \"Amount\"].")
		return
	}
	reported := 0
	for i := 1; i < len(elems); i++ {
		w, ok := width(i)
		if !ok || w == header {
			continue
		}
		reported++
		if reported > maxRowDiagnostics {
			resp.Diagnostics.AddAttributeError(req.Path, "More rows of unequal width",
				fmt.Sprintf("Further rows after rows[%d] also differ from the header's width of %d cells; only the first %d are listed.", i-1, header, maxRowDiagnostics))
			return
		}
		if w < 0 {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Null row",
				fmt.Sprintf("rows[%d] is null: every row must be a list of %d cells, like the header row.", i, header))
			continue
		}
		resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Row of unequal width",
			fmt.Sprintf("rows[%d] has %d cells but the header row (rows[0]) has %d: every row must have one cell per column (use \"\" for an empty cell).", i, w, header))
	}
	for i, e := range elems {
		l, ok := e.(types.List)
		if !ok || l.IsNull() || l.IsUnknown() {
			continue
		}
		for j, c := range l.Elements() {
			if c.IsNull() {
				resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtListIndex(j), "Null cell",
					fmt.Sprintf("rows[%d][%d] is null: use \"\" for an empty cell.", i, j))
				return
			}
		}
	}
}

// regexpValidator checks that a known string compiles as a Go regular
// expression (RE2 syntax).
type regexpValidator struct{}

func (regexpValidator) Description(context.Context) string {
	return "must be a valid regular expression (RE2 syntax)"
}
func (v regexpValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (regexpValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := regexp.Compile(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid regular expression",
			fmt.Sprintf("%s is not a valid regular expression (RE2 syntax, https://github.com/google/re2/wiki/Syntax): %s.", attrName(req.Path), err))
	}
}

// attrName renders a path the way a user writes it, such as file.format.
func attrName(p path.Path) string { return p.String() }
