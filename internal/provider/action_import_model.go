package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// importActionModel holds the etl_import action's configuration as
// Terraform sends it to ValidateConfig, ModifyPlan and Invoke.
type importActionModel struct {
	TemplateID        types.String   `tfsdk:"template_id"`
	File              types.Object   `tfsdk:"file"`
	Rows              types.List     `tfsdk:"rows"`
	Inputs            types.Map      `tfsdk:"inputs"`
	Submit            types.Bool     `tfsdk:"submit"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

// actionFileModel holds the action's file block: the resource's
// fileModel less content_wo, which an action, keeping no state, has no
// use for.
type actionFileModel struct {
	Path     types.String `tfsdk:"path"`
	Content  types.String `tfsdk:"content"`
	Format   types.String `tfsdk:"format"`
	Encoding types.String `tfsdk:"encoding"`
	Name     types.String `tfsdk:"name"`
	PartName types.String `tfsdk:"part_name"`
}

// file returns the file block as the resource's fileModel, as configured
// (no defaults); nil when it is null or unknown.
func (a importActionModel) file(ctx context.Context) (*fileModel, diag.Diagnostics) {
	if a.File.IsNull() || a.File.IsUnknown() {
		return nil, nil
	}
	var f actionFileModel
	diags := a.File.As(ctx, &f, basetypes.ObjectAsOptions{})
	if diags.HasError() {
		return nil, diags
	}
	return &fileModel{Path: f.Path, Content: f.Content, ContentWO: types.StringNull(), Format: f.Format,
		Encoding: f.Encoding, Name: f.Name, PartName: f.PartName}, diags
}

// specFile returns the action's file block obj as the spec's (the
// resource's file type, fileAttrTypes), its defaults filled in
// (withDefaults); null or unknown as obj is.
func specFile(ctx context.Context, obj types.Object) (types.Object, diag.Diagnostics) {
	switch {
	case obj.IsNull():
		return types.ObjectNull(fileAttrTypes), nil
	case obj.IsUnknown():
		return types.ObjectUnknown(fileAttrTypes), nil
	}
	var f actionFileModel
	diags := obj.As(ctx, &f, basetypes.ObjectAsOptions{})
	if diags.HasError() {
		return types.ObjectUnknown(fileAttrTypes), diags
	}
	v, d := types.ObjectValueFrom(ctx, fileAttrTypes, withDefaults(fileModel{Path: f.Path, Content: f.Content, ContentWO: types.StringNull(),
		Format: f.Format, Encoding: f.Encoding, Name: f.Name, PartName: f.PartName}))
	diags.Append(d...)
	return v, diags
}

// spec returns the import the configuration asks for, the defaults of its
// files filled in: what the code that checks, hashes and sends the data
// reads. With inputs, submit defaults to true, as the resource's does
// (submitDefault): a job created for inputs runs only once submitted.
func (a importActionModel) spec(ctx context.Context) (importSpec, diag.Diagnostics) {
	s := importSpec{
		TemplateID: a.TemplateID, Rows: a.Rows, RowsWO: types.ListNull(columnsType),
		Submit: a.Submit, WaitForCompletion: a.WaitForCompletion, ContentSHA256: types.StringUnknown(),
	}
	file, diags := specFile(ctx, a.File)
	s.File = file
	inputs, d := a.specInputs(ctx)
	diags.Append(d...)
	s.Inputs = inputs
	if s.Submit.IsNull() && !a.Inputs.IsNull() {
		s.Submit = types.BoolValue(true)
	}
	return s, diags
}

// timeout returns timeouts.invoke, or defaultCreateTimeout (the
// resource's create timeout) when it is not set. A value that is not a
// duration was already refused at plan by the timeouts package's own
// validator (actionTimeoutsAttribute).
func (a importActionModel) timeout(ctx context.Context) (time.Duration, diag.Diagnostics) {
	return configuredTimeout(ctx, a.Timeouts.Object, "invoke", defaultCreateTimeout, a.Timeouts.Invoke)
}
