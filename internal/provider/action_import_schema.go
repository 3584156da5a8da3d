package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The action's schema, made of the resource's (actionAttribute), and its
// model: the configuration as the resource's importSpec (spec).

// Schema describes the action's attributes: template_id, file (the
// resource's file block less content_wo), rows, inputs (the resource's,
// their file blocks less content_wo), submit, wait_for_completion and
// timeouts.invoke. Their descriptions speak of invocations: the
// resource's words about what a change does are left out
// (invocationDescription).
func (a *importAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	// The file block: the resource's (actionAttribute) less content_wo,
	// which an action has no use for since it keeps nothing in state.
	file, _ := actionAttribute(fileAttribute()).(schema.SingleNestedAttribute)
	file.MarkdownDescription = "A delimited file to upload, by `path` or inline. Exactly one of `file`, `rows` and `inputs` is set. In `file`, exactly one of `path` and `content` is set."
	// The framework's timeouts.invoke, with its description; the
	// attribute's own validator refuses a value that is not a duration at
	// plan.
	limits, _ := timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		InvokeDescription: "How long an invocation may take, the upload and `wait_for_completion` included, such as `\"2h\"`. Defaults to `\"30m\"`.",
	}).(schema.SingleNestedAttribute)
	limits.MarkdownDescription = "Time limits, as Go durations."
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs an import job on demand: every invocation starts one new job, as the `etl_import` resource would, optionally submits it and waits for it, " +
			"and reports its progress. It keeps nothing in state. Invoke it with `terraform apply -invoke=action.etl_import.<name>` or from a resource's " +
			"`action_trigger`; actions need Terraform 1.14 or later.",
		Attributes: map[string]schema.Attribute{
			"template_id": schema.StringAttribute{
				MarkdownDescription: "The id of the template each invocation creates its job from, such as `data.etl_template.gl.id`.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"file": file,
			"rows": schema.ListAttribute{
				MarkdownDescription: "Rows to send, header row first, such as `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`; every row as wide as the header. " +
					"Sent as a JSON body, or as a CSV file when that body would pass 25 MB. Exactly one of `file`, `rows` and `inputs` is set.",
				ElementType: types.ListType{ElemType: types.StringType},
				Optional:    true,
				Validators:  []validator.List{rowsValidator{}},
			},
			"inputs": actionInputsAttribute(),
			"submit": schema.BoolAttribute{
				MarkdownDescription: "Whether each invocation submits its job once its data is sent. Defaults to `false` with `file` or `rows`, `true` with `inputs` " +
					"(a job with inputs runs only once submitted).",
				Optional: true,
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Whether each invocation waits, up to `timeouts.invoke`, until its job ends: `ERROR`, `CANCELLED` and `EXPIRED` then fail it. Defaults to `false`.",
				Optional:            true,
			},
			"timeouts": limits,
		},
	}
}

// actionInputsDescription describes the action's inputs in its own words:
// invocations, not the resource's changes.
const actionInputsDescription = "One input per input step of the template, keyed by step name or input id (`data.etl_template` lists them in `steps`), " +
	"each with exactly one of `file` and `rows`: each invocation creates a job, loads the inputs in step order, then submits it. " +
	"Exactly one of `file`, `rows` and `inputs` is set."

// actionInputsAttribute returns the action's inputs: the resource's
// (actionAttribute: the same validators, rows and file block, less the
// facts and content_wo), described for invocations.
func actionInputsAttribute() schema.Attribute {
	a, _ := actionAttribute(inputsAttribute()).(schema.MapNestedAttribute)
	a.MarkdownDescription = actionInputsDescription
	return a
}

// actionAttribute returns the resource's attribute res as the action's:
// optional, with res's validators and its description for invocations
// (invocationDescription); of its nested attributes, those a
// configuration sets, less content_wo. A file's path has its exactly-one
// rule rebuilt to name path and content alone.
func actionAttribute(res rschema.Attribute) schema.Attribute {
	desc := invocationDescription(res.GetMarkdownDescription())
	switch a := res.(type) {
	case rschema.StringAttribute:
		return schema.StringAttribute{MarkdownDescription: desc, Optional: true, Validators: a.Validators}
	case rschema.ListAttribute:
		return schema.ListAttribute{MarkdownDescription: desc, Optional: true, ElementType: a.ElementType, Validators: a.Validators}
	case rschema.SingleNestedAttribute:
		return schema.SingleNestedAttribute{MarkdownDescription: desc, Optional: true, Attributes: actionAttributes(a.Attributes), Validators: a.Validators}
	case rschema.MapNestedAttribute:
		return schema.MapNestedAttribute{MarkdownDescription: desc, Optional: true, Validators: a.Validators,
			NestedObject: schema.NestedAttributeObject{Attributes: actionAttributes(a.NestedObject.Attributes)}}
	}
	panic(fmt.Sprintf("no action attribute for %T", res))
}

// actionAttributes returns the optional attributes of res, less
// content_wo, as the action's (actionAttribute).
func actionAttributes(res map[string]rschema.Attribute) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for name, a := range res {
		if a.IsOptional() && name != "content_wo" {
			out[name] = actionAttribute(a)
		}
	}
	if p, ok := out["path"].(schema.StringAttribute); ok {
		p.Validators = fileSourceValidators("content")
		out["path"] = p
	}
	return out
}

// resourceOnlyWords mark the sentences of the resource's descriptions that
// say what a change of the attribute does to the resource's job (a new
// job, or an update in place): an action has no job to change, each
// invocation starts one.
var resourceOnlyWords = []string{"starts a new job", "starts no job", "no job starts", "in place"}

// invocationDescription returns a description of the resource's without
// its sentences about changes (resourceOnlyWords).
func invocationDescription(desc string) string {
	var kept []string
	for _, s := range sentences(desc) {
		if !slices.ContainsFunc(resourceOnlyWords, func(w string) bool { return strings.Contains(s, w) }) {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// sentences splits a description into its sentences: each ends with a
// period followed by a space and a capital letter or a backquote.
func sentences(desc string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(desc); i++ {
		if desc[i] == '.' && desc[i+1] == ' ' && (unicode.IsUpper(rune(desc[i+2])) || desc[i+2] == '`') {
			out = append(out, desc[start:i+1])
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(desc[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

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

// configuredFile reads the action's file block obj as the resource's
// fileModel, as configured (no defaults), with content_wo, which an
// action, keeping no state, has no use for, null; nil when obj is null or
// unknown.
func configuredFile(ctx context.Context, obj types.Object) (*fileModel, diag.Diagnostics) {
	if obj.IsNull() || obj.IsUnknown() {
		return nil, nil
	}
	attrs := maps.Clone(obj.Attributes())
	attrs["content_wo"] = types.StringNull()
	full, diags := types.ObjectValue(fileAttrTypes, attrs)
	if diags.HasError() {
		return nil, diags
	}
	return fileFrom(ctx, full)
}

// specFile returns the action's file block obj as the spec's (the
// resource's file type, fileAttrTypes), its defaults filled in
// (withDefaults); null or unknown as obj is.
func specFile(ctx context.Context, obj types.Object) (types.Object, diag.Diagnostics) {
	f, diags := configuredFile(ctx, obj)
	switch {
	case obj.IsUnknown() || diags.HasError():
		return types.ObjectUnknown(fileAttrTypes), diags
	case f == nil:
		return types.ObjectNull(fileAttrTypes), diags
	}
	return types.ObjectValueFrom(ctx, fileAttrTypes, withDefaults(*f))
}

// spec returns the import the configuration asks for, the defaults of its
// files filled in: what the code that checks, hashes and sends the data
// reads. With inputs, submit defaults to true, as the resource's does
// (submitDefault): a job created for inputs runs only once submitted.
func (a importActionModel) spec(ctx context.Context) (importSpec, diag.Diagnostics) {
	s := importSpec{
		TemplateID: a.TemplateID, Rows: a.Rows,
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
// validator (see the action's Schema).
func (a importActionModel) timeout(ctx context.Context) (time.Duration, diag.Diagnostics) {
	return configuredTimeout(ctx, a.Timeouts.Object, "invoke", defaultCreateTimeout, a.Timeouts.Invoke)
}

// specInputs returns the action's inputs as the spec's (the resource's
// inputs type, inputAttrTypes): each file with content_wo null and its
// defaults filled in (withDefaults), values unknown kept unknown.
func (a importActionModel) specInputs(ctx context.Context) (types.Map, diag.Diagnostics) {
	typ := types.ObjectType{AttrTypes: inputAttrTypes}
	switch {
	case a.Inputs.IsNull():
		return types.MapNull(typ), nil
	case a.Inputs.IsUnknown():
		return types.MapUnknown(typ), nil
	}
	var diags diag.Diagnostics
	none := nullFacts()
	out := make(map[string]attr.Value, len(a.Inputs.Elements()))
	for k, e := range a.Inputs.Elements() {
		obj, _ := e.(types.Object)
		switch {
		case obj.IsUnknown():
			out[k] = types.ObjectUnknown(inputAttrTypes)
		case obj.IsNull():
			out[k] = types.ObjectNull(inputAttrTypes)
		default:
			fileObj, _ := obj.Attributes()["file"].(types.Object)
			f, d := specFile(ctx, fileObj)
			diags.Append(d...)
			out[k], d = types.ObjectValue(inputAttrTypes, map[string]attr.Value{"file": f, "rows": obj.Attributes()["rows"],
				"columns": none.Columns, "row_count": none.RowCount, "size_bytes": none.SizeBytes})
			diags.Append(d...)
		}
	}
	if diags.HasError() {
		return types.MapUnknown(typ), diags
	}
	m, d := types.MapValue(typ, out)
	diags.Append(d...)
	return m, diags
}
