package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
const writeOnlyNote = "Write-only: never stored in the plan or the state (Terraform 1.11 and later, OpenTofu 1.11 and later)."

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
