package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

var (
	_ function.Function              = (*csvEncodeFunction)(nil)
	_ provider.ProviderWithFunctions = (*etlProvider)(nil)
)

// newCSVEncodeFunction returns the csv_encode function.
func newCSVEncodeFunction() function.Function { return &csvEncodeFunction{} }

// csvEncodeFunction is provider::etl::csv_encode(rows): rows (header row
// first, as etl_import's rows takes them) encoded as the CSV file the
// provider sends for rows as a file, by that same encoder
// (etl.DataUpload.WriteCSV), so the two never differ by a byte.
type csvEncodeFunction struct{}

// csvEncodeSummary is the function's one-line summary.
const csvEncodeSummary = "Encode rows, header row first, as CSV text for a fixture file built in HCL: byte for byte the CSV the provider sends for rows as a file."

// csvEncodeDescription is the function's description (Markdown).
const csvEncodeDescription = "Encodes a list of rows, each a list of strings, the first row the header row (as `etl_import`'s `rows` takes them), " +
	"as CSV text: byte for byte the CSV file the provider sends when `rows` are sent as a file (`" + etl.CSVFileName + "`, rows whose JSON body is over the " +
	"25 MB limit of a JSON body), written by the same encoder. " +
	"Use it to build a fixture file in HCL: the `content` of an `etl_import`'s `file`, a `local_file`, or the expected value of a check. " +
	"Terraform has `csvdecode` but no CSV encoder. Called as `provider::etl::csv_encode(rows)`, with the provider in `required_providers`: " +
	"provider-defined functions need Terraform 1.8 or later, or OpenTofu 1.7 or later.\n\n" +
	"The CSV is RFC 4180 as Go's `encoding/csv` reads it: cells are separated by commas and every record, the last too, ends in a line feed (`\\n`). " +
	"A cell is quoted only where it must be: when it holds a comma, a double quote, a carriage return or a line feed, or begins or ends with a space or a tab; " +
	"a double quote in a quoted cell is doubled. A row of one empty cell is written as `\"\"`, so that it is not an empty line. " +
	"Cells are written as they are: nothing is trimmed, and a line break inside a cell (`\\n`, `\\r` or `\\r\\n`) is kept as it is, inside the quotes. " +
	"`csvdecode` reads the text back to the data rows, as objects keyed by the header row's cells, except that it reads a `\\r\\n` inside a cell as `\\n` " +
	"(as Go's `encoding/csv`, which it uses, does). So does the service, as most CSV readers do, when it imports this CSV as a file: a cell holding " +
	"`\\r\\n` imports with `\\n`, where the same rows sent as `etl_import`'s `rows` in a JSON body (at most 25 MB) keep the `\\r\\n`. " +
	"Use LF (`\\n`) line breaks in cells so that the same value is imported either way; `etl_import` warns at plan about a `rows` cell holding `\\r\\n`.\n\n" +
	"The header row's cells are not checked against a template. It is an error when `rows` is empty, when the header row has no cells, " +
	"when a row has more or fewer cells than the header row (the error names the row, such as `rows[2]`), or when a row or a cell is null."

// Metadata names the function csv_encode.
func (f *csvEncodeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "csv_encode"
}

// Definition declares csv_encode(rows list(list(string))) string.
func (f *csvEncodeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:             csvEncodeSummary,
		MarkdownDescription: csvEncodeDescription,
		Parameters: []function.Parameter{
			function.ListParameter{
				Name:        "rows",
				ElementType: types.ListType{ElemType: types.StringType},
				MarkdownDescription: "The rows, the header row of column names first and then the data rows, every row with as many cells as the header row, " +
					"for example `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`.",
			},
		},
		Return: function.StringReturn{},
	}
}

// Run encodes the rows with etl.DataUpload.WriteCSV, after checking them:
// no null row or cell, a header row with cells, every row as wide as it.
func (f *csvEncodeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var l types.List
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &l))
	if resp.Error != nil {
		return
	}
	rows, known, msg := csvEncodeRows(l)
	if msg != "" {
		resp.Error = function.NewArgumentFuncError(0, msg)
		return
	}
	if !known {
		// Terraform calls the function only with wholly known arguments
		// (AllowUnknownValues is off); another caller gets unknown.
		resp.Error = resp.Result.Set(ctx, types.StringUnknown())
		return
	}
	if msg := csvEncodeCheck(rows); msg != "" {
		resp.Error = function.NewArgumentFuncError(0, msg)
		return
	}
	var b strings.Builder
	if _, err := (etl.DataUpload{Rows: rows}).WriteCSV(&b); err != nil {
		resp.Error = function.NewFuncError("encoding the rows as CSV: " + err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, b.String())
}

// csvEncodeRows converts the rows argument to its cells. msg names the
// first null row or cell (by its index, as rows[i][j]); known is false
// when the list, a row or a cell is unknown.
func csvEncodeRows(l types.List) (rows [][]string, known bool, msg string) {
	if l.IsNull() {
		return nil, true, "rows is null: it must be a list of rows, the header row first"
	}
	if l.IsUnknown() {
		return nil, false, ""
	}
	known = true
	rows = make([][]string, 0, len(l.Elements()))
	for i, e := range l.Elements() {
		row, ok := e.(types.List)
		if !ok {
			return nil, true, fmt.Sprintf("rows[%d] is not a list of strings", i)
		}
		if row.IsNull() {
			return nil, true, fmt.Sprintf("rows[%d] is null: every row must be a list of strings, one per column", i)
		}
		if row.IsUnknown() {
			known = false
			rows = append(rows, nil)
			continue
		}
		cells := make([]string, 0, len(row.Elements()))
		for j, c := range row.Elements() {
			s, ok := c.(types.String)
			if !ok {
				return nil, true, fmt.Sprintf("rows[%d][%d] is not a string", i, j)
			}
			if s.IsNull() {
				return nil, true, fmt.Sprintf(`rows[%d][%d] is null: every cell must be a string (use "" for an empty cell)`, i, j)
			}
			if s.IsUnknown() {
				known = false
			}
			cells = append(cells, s.ValueString())
		}
		rows = append(rows, cells)
	}
	return rows, known, ""
}

// csvEncodeCheck returns what is wrong with the rows as a table, in
// etl.CheckRows's words (the ones etl_import uses for its rows): no rows,
// a header row with no cells, or rows whose width differs from the
// header row's (the first named, the others counted). A blank column name
// is no problem here: the CSV is not checked against a template.
func csvEncodeCheck(rows [][]string) string {
	if len(rows) == 0 || len(rows[0]) == 0 {
		// RowsEmpty or RowsEmptyHeader: the only problem listed. (CheckRows
		// skips a nil header row as not yet known; csvEncodeRows gives
		// none, as every known row is a list.)
		if ps := etl.CheckRows(rows, 1); len(ps) > 0 {
			return ps[0].Message
		}
		return "the header row (rows[0]) has no cells"
	}
	// Room for every problem, so that none is cut off by RowsMore: at most
	// one per header cell and one per data row.
	var first string
	var more int
	for _, p := range etl.CheckRows(rows, len(rows[0])+len(rows)) {
		if p.Kind != etl.RowsWidth {
			continue
		}
		if first == "" {
			first = p.Message
		} else {
			more++
		}
	}
	switch more {
	case 0:
		return first
	case 1:
		return first + "; 1 more row has a different number of cells too"
	default:
		return fmt.Sprintf("%s; %d more rows have a different number of cells too", first, more)
	}
}
