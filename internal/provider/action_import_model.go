package provider

import (
	"context"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
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

// resourceFile is the action's file block obj as the resource's (of
// fileAttrTypes): the same attributes, and content_wo, which an action,
// keeping no state, has no use for, null; null or unknown as obj is.
func resourceFile(obj types.Object) (types.Object, diag.Diagnostics) {
	switch {
	case obj.IsNull():
		return types.ObjectNull(fileAttrTypes), nil
	case obj.IsUnknown():
		return types.ObjectUnknown(fileAttrTypes), nil
	}
	attrs := maps.Clone(obj.Attributes())
	attrs["content_wo"] = types.StringNull()
	return types.ObjectValue(fileAttrTypes, attrs)
}

// file returns the file block as the resource's fileModel, as configured
// (no defaults); nil when it is null or unknown.
func (a importActionModel) file(ctx context.Context) (*fileModel, diag.Diagnostics) {
	obj, diags := resourceFile(a.File)
	f, d := fileFrom(ctx, obj)
	diags.Append(d...)
	return f, diags
}

// specFile returns the action's file block obj as the spec's (the
// resource's file type, fileAttrTypes), its defaults filled in
// (withDefaults); null or unknown as obj is.
func specFile(ctx context.Context, obj types.Object) (types.Object, diag.Diagnostics) {
	full, diags := resourceFile(obj)
	f, d := fileFrom(ctx, full)
	diags.Append(d...)
	switch {
	case diags.HasError():
		return types.ObjectUnknown(fileAttrTypes), diags
	case f == nil:
		return full, diags // null or unknown
	}
	v, d := types.ObjectValueFrom(ctx, fileAttrTypes, withDefaults(*f))
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
