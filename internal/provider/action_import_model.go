package provider

import (
	"context"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"

	"github.com/hashicorp/terraform-plugin-framework/attr"
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

// actionFileAttrTypes are the attributes of the action's file block: the
// resource's (fileAttrTypes) less content_wo.
var actionFileAttrTypes = func() map[string]attr.Type {
	m := maps.Clone(fileAttrTypes)
	delete(m, "content_wo")
	return m
}()

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

// asResourceFile returns the action's file block obj as the resource's
// file block, its defaults filled in (withDefaults); null or unknown as
// obj is.
func asResourceFile(ctx context.Context, obj types.Object) (types.Object, diag.Diagnostics) {
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

// asImportModel returns the configuration as the resource's model of the
// job to start, the defaults of its files filled in: what the resource's
// code that checks, hashes and sends the data reads. With inputs, submit
// defaults to true, as the resource's does (submitDefault): a job created
// for inputs runs only once submitted. It is never saved.
func (a importActionModel) asImportModel(ctx context.Context) (importModel, diag.Diagnostics) {
	m := importModel{
		TemplateID: a.TemplateID, Rows: a.Rows, RowsWO: types.ListNull(types.ListType{ElemType: types.StringType}),
		Submit: a.Submit, WaitForCompletion: a.WaitForCompletion, ContentSHA256: types.StringUnknown(),
	}
	file, diags := asResourceFile(ctx, a.File)
	m.File = file
	inputs, d := a.asResourceInputs(ctx)
	diags.Append(d...)
	m.Inputs = inputs
	if m.Submit.IsNull() && !a.Inputs.IsNull() {
		m.Submit = types.BoolValue(true)
	}
	return m, diags
}

// timeout returns timeouts.invoke, or defaultCreateTimeout (the
// resource's create timeout) when it is not set. A value that is not a
// duration was already refused at plan by the timeouts package's own
// validator (actionTimeoutsAttribute).
func (a importActionModel) timeout(ctx context.Context) (time.Duration, diag.Diagnostics) {
	return configuredTimeout(ctx, a.Timeouts.Object, "invoke", defaultCreateTimeout, a.Timeouts.Invoke)
}
