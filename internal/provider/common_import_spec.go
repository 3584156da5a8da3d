package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// What an import sends, as the etl_import resource and the etl_import
// action read it: the import (importSpec), its write-only data
// (writeOnlyData), and its rows (rowsFrom), with the warnings of rows sent
// as a CSV file (rowsAsFileDetail) or with a cell that holds a CR LF
// (rowsCRLFWarning).

// importSpec is one import as the code the etl_import resource and the
// etl_import action share reads it: the template, the data (a file with
// the format and encoding it is read with, rows, or inputs), the SHA-256
// planned for the bytes, and what follows the start. The resource builds
// it from its plan (importModel.spec), the action from its configuration
// (importActionModel.spec); the outcome (the job) goes back to each
// caller, which records it in its own way.
type importSpec struct {
	TemplateID types.String
	// File is the file attribute (fileAttrTypes; null without a file).
	File types.Object
	// Rows is the rows attribute (rows_wo's value comes from writeOnlyData).
	Rows types.List
	// Inputs is the inputs attribute (inputAttrTypes; null without).
	Inputs types.Map
	// ContentSHA256 is the hash the plan took; unknown when it could not.
	ContentSHA256 types.String
	// Submit and WaitForCompletion say what follows the start.
	Submit, WaitForCompletion types.Bool
}

// kind is the attribute that holds the data: file, rows (rows and rows_wo
// alike) or inputs.
func (s importSpec) kind() string {
	switch {
	case !s.Inputs.IsNull():
		return importjob.KindInputs
	case !s.File.IsNull():
		return importjob.KindFile
	}
	return importjob.KindRows
}

// Write-only inline data: rows_wo and file.content_wo mean what rows and
// file.content mean, but Terraform (1.11 and later) and OpenTofu (1.11
// and later) keep them out of the plan and the state. The provider reads
// them from the configuration into a writeOnlyData, which stays apart from
// the model: the model is what is saved (also after a failure, when the
// framework does not null write-only values for us), so the values can
// never reach the state. content_sha256, computed from them at plan,
// still decides whether a new job starts.

// writeOnlyNote is the part of the write-only attributes' descriptions
// that says what write-only means.
const writeOnlyNote = "Write-only: never stored in the plan or the state (Terraform 1.11 and later, OpenTofu 1.12 and later, the versions this provider supports)."

// writeOnlyData is the write-only data of a configuration; null values
// when it has none.
type writeOnlyData struct {
	rows    types.List   // rows_wo
	content types.String // file.content_wo
	// inputs holds inputs[key].file.content_wo by key, where it is set.
	inputs map[string]types.String
}

// forInput is the write-only data of the input keyed key: its file's
// content_wo.
func (wo writeOnlyData) forInput(key string) writeOnlyData {
	return writeOnlyData{content: wo.inputs[key]}
}

// rowsOf returns the rows to send, rows or rows_wo, and the attribute that
// holds them; null when the data is a file.
func (wo writeOnlyData) rowsOf(s importSpec) (types.List, path.Path) {
	if s.Rows.IsNull() && !wo.rows.IsNull() {
		return wo.rows, path.Root("rows_wo")
	}
	return s.Rows, path.Root("rows")
}

// withContent returns f with the configuration's file.content_wo: a copy
// for hashing and sending, never saved.
func (wo writeOnlyData) withContent(f fileModel) fileModel {
	if f.ContentWO.IsNull() {
		f.ContentWO = wo.content
	}
	return f
}

// rowsFrom converts the rows attribute to its cells; false when the list,
// a row or a cell is unknown. A null list gives no rows.
func rowsFrom(l types.List) ([][]string, bool) {
	if l.IsUnknown() {
		return nil, false
	}
	out := make([][]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		row, ok := e.(types.List)
		if !ok || row.IsUnknown() {
			return nil, false
		}
		cells := make([]string, 0, len(row.Elements()))
		for _, c := range row.Elements() {
			s, ok := c.(types.String)
			if !ok || s.IsUnknown() {
				return nil, false
			}
			cells = append(cells, s.ValueString())
		}
		out = append(out, cells)
	}
	return out, true
}

// rowsAsFileDetail returns the detail of the warning for rows whose JSON
// body (jsonSize bytes) is over the limit of start with data (limit
// bytes), which are sent as a CSV file instead.
func rowsAsFileDetail(jsonSize, limit int64) string {
	return fmt.Sprintf("The rows encode to a %d-byte JSON body, over the service's %d-byte limit for JSON, so they are sent instead as a UTF-8 CSV file (%s) "+
		"as a file upload, with the same header, rows and template. content_sha256 is the SHA-256 of that CSV file. "+
		"To silence this warning, write the rows to a file and use file.path.", jsonSize, limit, etl.CSVFileName)
}

// rowsAsFileSummary titles the warning for rows sent as a CSV file
// (rowsAsFileDetail).
const rowsAsFileSummary = "Rows sent as a CSV file"

// rowsCRLFSummary titles the warning for rows with a cell that holds a CR
// LF (rowsCRLFWarning).
const rowsCRLFSummary = "Cell with a CR LF line break"

// rowsCRLFNote says what becomes of a CR LF in a cell: the sentence the
// rows attribute's description, the warning and csv_encode's description
// share.
const rowsCRLFNote = "Use LF line breaks inside cells: the plan warns of a CR LF."

// rowsCRLFWarning warns, on the first cell of rows (the attribute at) that
// holds a CR LF, that the value imported depends on how the rows are sent.
// It names the cell by its row and column; for rows (not write-only) it
// quotes the column's name too, never anything of rows_wo. limit is the
// largest JSON body of rows sent (the provider's tuning).
func rowsCRLFWarning(rows [][]string, at path.Path, limit int64) diag.Diagnostics {
	var diags diag.Diagnostics
	c, found := etl.FindCRLF(rows)
	if !found {
		return diags
	}
	name := at.String()
	where := fmt.Sprintf("%s[%d][%d] (row %d, column %d", name, c.Row, c.Cell, c.Row, c.Cell+1)
	if c.Row == 0 {
		where = fmt.Sprintf("%s[0][%d] (the header row, column %d", name, c.Cell, c.Cell+1)
	}
	if name == "rows" && c.Row > 0 && c.Cell < len(rows[0]) {
		where += fmt.Sprintf(", %q", rows[0][c.Cell])
	}
	where += ")"
	more := ""
	if c.Count > 1 {
		more = fmt.Sprintf(", as do %d more cells", c.Count-1)
	}
	diags.AddAttributeWarning(at.AtListIndex(c.Row).AtListIndex(c.Cell), rowsCRLFSummary, fmt.Sprintf(
		"%s holds a CR LF line break (\\r\\n)%s. Sent as a JSON body (for rows whose JSON body is at most %d bytes), "+
			"the CR LF is kept; sent as a CSV file (%s, for rows over that limit), or made into CSV with provider::etl::csv_encode, it is read as LF (\\n) "+
			"by the service, as by most CSV readers. So the same rows can import different values depending on their size. "+
			"To avoid it, use LF line breaks in %s's cells, for example replace(cell, \"\\r\\n\", \"\\n\").",
		where, more, limit, etl.CSVFileName, name))
	return diags
}
