package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The resource's write-only attributes: rows_wo (file.content_wo is the
// file block's, common_file_attribute.go), and how its configuration's
// write-only values are read (readWriteOnly). What write-only means here:
// common_write_only.go.

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
