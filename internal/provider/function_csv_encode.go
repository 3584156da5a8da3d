package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

var _ function.Function = (*csvEncodeFunction)(nil)

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
const csvEncodeDescription = "Encodes rows, header row first (as `etl_import`'s `rows` takes them), as CSV text: byte for byte the file the provider " +
	"sends for rows over the 25 MB limit of a JSON body (`" + etl.CSVFileName + "`), written by the same encoder. Use it to build a fixture file in HCL: " +
	"the `content` of an `etl_import`'s `file`, a `local_file`, or the expected value of a check; Terraform has `csvdecode` but no CSV encoder. " +
	"Provider functions need Terraform 1.8 or OpenTofu 1.7, and the provider in `required_providers`.\n\n" +
	"Cells are separated by commas, and every record ends in a line feed. A cell is quoted only when it holds a comma, a double quote " +
	"or a line break, or begins or ends with a space or a tab; a double quote inside is doubled. Nothing is trimmed. " +
	"A CR LF inside a cell is kept, but CSV readers, the service's and `csvdecode` among them, read it as LF: use LF line breaks in cells.\n\n" +
	"It is an error when `rows` is empty, when the header row has no cells, when a row is wider or narrower than the header " +
	"(the error names the row, such as `rows[2]`), or when a row or a cell is null."

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
				Name:                "rows",
				ElementType:         types.ListType{ElemType: types.StringType},
				MarkdownDescription: "The rows, header row first, each as wide as the header, such as `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`.",
			},
		},
		Return: function.StringReturn{},
	}
}

// Run encodes the rows with etl.DataUpload.WriteCSV, after checking them:
// no null row or cell (rowsOf), and a table (etl.CheckTable: a
// header row with cells, every row as wide as it), in the words etl_import
// uses for its rows.
func (f *csvEncodeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var l types.List
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &l))
	if resp.Error != nil {
		return
	}
	rows, known, nulls := rowsOf(l)
	var msg string
	switch {
	case l.IsNull():
		msg = "rows is null: it must be a list of rows, the header row first"
	case len(nulls) > 0 && nulls[0][1] < 0:
		msg = fmt.Sprintf("rows[%d] is null: every row must be a list of strings, one per column", nulls[0][0])
	case len(nulls) > 0:
		msg = fmt.Sprintf(`rows[%d][%d] is null: every cell must be a string (use "" for an empty cell)`, nulls[0][0], nulls[0][1])
	case !known:
		// Terraform calls the function only with wholly known arguments
		// (AllowUnknownValues is off); another caller gets unknown.
		resp.Error = resp.Result.Set(ctx, types.StringUnknown())
		return
	default:
		msg = etl.CheckTable("rows", rows)
	}
	if msg != "" {
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
