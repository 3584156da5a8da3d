package provider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The inputs of a job created from a template with several input steps:
// each is loaded into its own input of the job, then the job is submitted.
// This file holds the resource's schema of inputs and its submit default;
// their model and checks, which the action shares, are in
// common_inputs*.go.

// inputsHashDescription documents content_sha256 for inputs: the one
// construction inputsHash implements.
const inputsHashDescription = " With `inputs`, one hash over every input ([how](../guides/several-inputs.md#what-content_sha256-covers))."

// inputsAttribute is etl_import.inputs.
func inputsAttribute() schema.Attribute {
	return schema.MapNestedAttribute{
		MarkdownDescription: "One input per input step of the template, keyed by step name or input id (`data.etl_template` lists them in `steps`), " +
			"each with exactly one of `file` and `rows`. " + exactlyOneData,
		Optional:   true,
		Validators: []validator.Map{mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1))},
		NestedObject: schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{
				"file": inputFileAttribute(),
				"rows": schema.ListAttribute{
					MarkdownDescription: "Rows to load into this input, header row first, sent as a CSV file (`" + etl.CSVFileName + "`).",
					ElementType:         types.ListType{ElemType: types.StringType},
					Optional:            true,
					Validators:          []validator.List{rowsValidator{}},
				},
				"columns":    inputFactsAttributes()["columns"],
				"row_count":  inputFactsAttributes()["row_count"],
				"size_bytes": inputFactsAttributes()["size_bytes"],
			},
		},
	}
}

// inputFileAttribute is the file block of one input: the top-level file
// block (fileAttribute: the same attributes, defaults, validators and
// descriptions) with exactly one of file and rows required beside it, and
// without the per-attribute replacement rule: what replaces a job with
// inputs is content_sha256, which covers each input's bytes, format and
// encoding, so moving a file or renaming it updates in place.
func inputFileAttribute() schema.Attribute {
	a, ok := fileAttribute().(schema.SingleNestedAttribute)
	if !ok {
		panic("fileAttribute is not a single nested attribute")
	}
	a.MarkdownDescription = "A file to load into this input, as the top-level `file`."
	a.Attributes = maps.Clone(a.Attributes)
	for name, at := range a.Attributes {
		if s, ok := at.(schema.StringAttribute); ok {
			s.PlanModifiers = slices.DeleteFunc(slices.Clone(s.PlanModifiers), func(m planmodifier.String) bool {
				_, isDefault := m.(fileDefault)
				return !isDefault
			})
			a.Attributes[name] = s
		}
	}
	a.Validators = append(slices.Clone(a.Validators), exactlyOneOfSiblings{"rows"})
	return a
}

// submitDefault plans submit when the configuration leaves it out: true
// with inputs (a created job runs only once submitted; one never
// submitted expires), false with file or rows.
type submitDefault struct{}

const submitDefaultDescription = "Defaults to true with inputs, false with file or rows."

func (submitDefault) Description(context.Context) string         { return submitDefaultDescription }
func (submitDefault) MarkdownDescription(context.Context) string { return submitDefaultDescription }

func (submitDefault) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	var inputs types.Map
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("inputs"), &inputs)...)
	resp.PlanValue = types.BoolValue(!inputs.IsNull())
}

// checkInputsConfig runs the file block's configuration check
// (checkFileConfig) on the file of every input whose values are known
// (checkInputFiles).
func checkInputsConfig(ctx context.Context, config tfsdk.Config) diag.Diagnostics {
	var m types.Map
	diags := config.GetAttribute(ctx, path.Root("inputs"), &m)
	if diags.HasError() {
		return diags
	}
	diags.Append(checkInputFiles(ctx, m)...)
	return diags
}
