package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
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
	// The rows as far as they are known: an unknown row is nil (skipped),
	// an unknown cell a placeholder (it counts, and is not a blank name).
	elems := req.ConfigValue.Elements()
	rows := make([][]string, len(elems))
	nullCell := false
	for i, e := range elems {
		l, ok := e.(types.List)
		if !ok || l.IsUnknown() {
			continue
		}
		if l.IsNull() {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Null row",
				fmt.Sprintf("rows[%d] is null: every row must be a list of cells, like the header row.", i))
			continue
		}
		cells := l.Elements()
		row := make([]string, len(cells))
		for j, c := range cells {
			s, ok := c.(types.String)
			switch {
			case !ok || s.IsUnknown():
				row[j] = "(unknown)"
			case s.IsNull():
				row[j] = "(null)"
				if !nullCell {
					nullCell = true
					resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtListIndex(j), "Null cell",
						fmt.Sprintf("rows[%d][%d] is null: use \"\" for an empty cell.", i, j))
				}
			default:
				row[j] = s.ValueString()
			}
		}
		rows[i] = row
	}
	for _, p := range etl.CheckRows(rows, maxRowDiagnostics) {
		at := req.Path
		if p.Row >= 0 {
			at = at.AtListIndex(p.Row)
			if p.Cell >= 0 {
				at = at.AtListIndex(p.Cell)
			}
		}
		resp.Diagnostics.AddAttributeError(at, rowsProblemSummaries[p.Kind], p.Message+".")
	}
}

var rowsProblemSummaries = map[etl.RowsProblemKind]string{
	etl.RowsEmpty:           "Empty rows",
	etl.RowsEmptyHeader:     "Empty header row",
	etl.RowsEmptyColumnName: "Empty column name",
	etl.RowsWidth:           "Row of unequal width",
	etl.RowsMore:            "More rows of unequal width",
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
