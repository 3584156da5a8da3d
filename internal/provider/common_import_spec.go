package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

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
	// Rows and RowsWO are the rows, as rows or rows_wo (the write-only
	// value itself comes from writeOnlyData: RowsWO is null here).
	Rows, RowsWO types.List
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
