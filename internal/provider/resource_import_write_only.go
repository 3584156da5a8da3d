package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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

// rowsWOAttribute is rows_wo: rows, write-only.
func rowsWOAttribute() schema.Attribute {
	return schema.ListAttribute{
		MarkdownDescription: "Rows to send, as `rows`, kept out of the state. " + writeOnlyNote + " " + exactlyOneData,
		ElementType:         types.ListType{ElemType: types.StringType},
		Optional:            true,
		WriteOnly:           true,
		Validators:          []validator.List{rowsValidator{}},
	}
}

// contentWOAttribute is file.content_wo: file.content, write-only.
func contentWOAttribute() schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: "The file's content inline, as `content`, kept out of the state. " + writeOnlyNote,
		Optional:            true,
		WriteOnly:           true,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
}

// fileSourceValidators are file.path's validators: not empty, and exactly
// one of path and the inline attributes named set.
func fileSourceValidators(inline ...string) []validator.String {
	return []validator.String{stringvalidator.LengthAtLeast(1), exactlyOneOfSiblings(inline)}
}

// renameRows rewrites a problem etl.CheckRows found, which names the rows
// "rows", for the attribute at (rows_wo).
func renameRows(msg string, at path.Path) string {
	name := attrName(at)
	if name == "rows" {
		return msg
	}
	return strings.NewReplacer("rows[", name+"[", "rows is empty", name+" is empty").Replace(msg)
}

// writeOnlyData is the write-only data of a configuration; null values
// when it has none.
type writeOnlyData struct {
	rows    types.List   // rows_wo
	content types.String // file.content_wo
	// inputs holds inputs[key].file.content_wo by key, where it is set.
	inputs map[string]types.String
}

// readWriteOnly reads rows_wo, file.content_wo and each input's
// file.content_wo from the configuration.
func readWriteOnly(ctx context.Context, cfg tfsdk.Config) (writeOnlyData, diag.Diagnostics) {
	var wo writeOnlyData
	var file types.Object
	diags := cfg.GetAttribute(ctx, path.Root("rows_wo"), &wo.rows)
	diags.Append(cfg.GetAttribute(ctx, path.Root("file"), &file)...)
	f, d := fileFrom(ctx, file)
	diags.Append(d...)
	if f != nil {
		wo.content = f.ContentWO
	}
	var inputs types.Map
	diags.Append(cfg.GetAttribute(ctx, path.Root("inputs"), &inputs)...)
	for key, e := range inputs.Elements() {
		in, _ := e.(types.Object)
		file, _ := in.Attributes()["file"].(types.Object)
		f, d := fileFrom(ctx, file)
		diags.Append(d...)
		if f == nil || f.ContentWO.IsNull() {
			continue
		}
		if wo.inputs == nil {
			wo.inputs = map[string]types.String{}
		}
		wo.inputs[key] = f.ContentWO
	}
	return wo, diags
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

// inline returns the file block's inline text, content or content_wo, and
// the name of the attribute that holds it.
func (f fileModel) inline() (types.String, string) {
	if f.Content.IsNull() && !f.ContentWO.IsNull() {
		return f.ContentWO, "content_wo"
	}
	return f.Content, "content"
}
