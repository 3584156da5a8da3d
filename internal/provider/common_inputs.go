package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The inputs of a job created from a template with several input steps,
// as the etl_import resource and the etl_import action both take them:
// their model, how they are read, and how the file block's rules and
// diagnostics are reused for each input's file. Planning them is in
// common_inputs_plan.go, loading them in common_inputs_load.go.

// inputModel is one entry of inputs.
type inputModel struct {
	File types.Object `tfsdk:"file"`
	Rows types.List   `tfsdk:"rows"`
	// The input's data facts (resource_import_inputs_facts.go); null in
	// the action's inputs, which have none.
	dataFacts
}

// inputAttrTypes are the attributes of one entry of inputs, its file the
// resource's file block (the action's, which has no content_wo, is
// converted to it: importActionModel.specInputs).
var inputAttrTypes = map[string]attr.Type{
	"file":       types.ObjectType{AttrTypes: fileAttrTypes},
	"rows":       types.ListType{ElemType: types.ListType{ElemType: types.StringType}},
	"columns":    types.ListType{ElemType: types.StringType},
	"row_count":  types.Int64Type,
	"size_bytes": types.Int64Type,
}

// keyedInput is one entry of inputs with its key.
type keyedInput struct {
	key string
	inputModel
}

// inputsFrom reads inputs in key order; known is false when the map or
// one of its entries is unknown.
func inputsFrom(ctx context.Context, m types.Map) (ins []keyedInput, known bool, diags diag.Diagnostics) {
	if m.IsNull() || m.IsUnknown() {
		return nil, false, nil
	}
	elems := m.Elements()
	for _, k := range slices.Sorted(maps.Keys(elems)) {
		obj, ok := elems[k].(types.Object)
		if !ok || obj.IsUnknown() {
			return nil, false, diags
		}
		var in inputModel
		diags.Append(obj.As(ctx, &in, basetypes.ObjectAsOptions{})...)
		if diags.HasError() {
			return nil, false, diags
		}
		ins = append(ins, keyedInput{key: k, inputModel: in})
	}
	return ins, true, diags
}

// inputsValue is the inputs map of ins.
func inputsValue(ctx context.Context, ins []keyedInput) (types.Map, diag.Diagnostics) {
	out := make(map[string]inputModel, len(ins))
	for _, in := range ins {
		if in.Columns.ElementType(ctx) == nil { // a model built without facts
			in.Columns = types.ListNull(types.StringType)
		}
		out[in.key] = in.inputModel
	}
	return types.MapValueFrom(ctx, types.ObjectType{AttrTypes: inputAttrTypes}, out)
}

// inputPath is the path of the input keyed key.
func inputPath(key string) path.Path { return path.Root("inputs").AtMapKey(key) }

// inInput moves diagnostics about the top-level file block (produced by
// the file block's own checks, run on the input's file) to the input's
// file block, and says which input they are about.
func inInput(key string, diags diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		detail := fmt.Sprintf("In inputs[%q]: %s", key, d.Detail())
		at := inputPath(key)
		if wp, ok := d.(diag.DiagnosticWithPath); ok && len(wp.Path().Steps()) > 0 {
			for _, s := range wp.Path().Steps() {
				if name, ok := s.(path.PathStepAttributeName); ok {
					at = at.AtName(string(name))
				}
			}
		}
		switch _, isOutside := d.(outsideError); {
		case isOutside:
			addOutsideError(&out, at, d.Summary(), detail)
		case d.Severity() == diag.SeverityError:
			out.AddAttributeError(at, d.Summary(), detail)
		default:
			out.AddAttributeWarning(at, d.Summary(), detail)
		}
	}
	return out
}

// checkInputFiles runs the file block's configuration check
// (checkFileConfig) on the file of every input of m (the resource's
// inputs type) whose values are known; entries still unknown are skipped.
func checkInputFiles(ctx context.Context, m types.Map) diag.Diagnostics {
	var diags diag.Diagnostics
	if m.IsNull() || m.IsUnknown() {
		return diags
	}
	elems := m.Elements()
	for _, k := range slices.Sorted(maps.Keys(elems)) {
		obj, ok := elems[k].(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		var in inputModel
		if d := obj.As(ctx, &in, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true}); d.HasError() {
			continue
		}
		f, d := fileFrom(ctx, in.File)
		if f == nil || d.HasError() {
			continue
		}
		diags.Append(inInput(k, checkFileConfig(*f))...)
	}
	return diags
}
