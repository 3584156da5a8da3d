package provider

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Schema describes the action's attributes: template_id, file (the
// resource's file block less content_wo), rows, inputs (the resource's,
// their file blocks less content_wo), submit, wait_for_completion and
// timeouts.invoke. Their descriptions speak of invocations: the
// resource's words about what a change does are left out
// (invocationDescription).
func (a *importAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
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
			"file": actionFileAttribute(),
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
			"timeouts": actionTimeoutsAttribute(ctx),
		},
	}
}

// actionFileAttribute returns the action's file block: the resource's file
// block (each attribute's description, for invocations, and validators)
// less content_wo, which an action has no use for since it keeps nothing
// in state (actionFileAttributes).
func actionFileAttribute() schema.Attribute {
	res, _ := fileAttribute().(rschema.SingleNestedAttribute)
	return schema.SingleNestedAttribute{
		MarkdownDescription: "A delimited file to upload, by `path` or inline. Exactly one of `file`, `rows` and `inputs` is set. In `file`, exactly one of `path` and `content` is set.",
		Optional:            true,
		Attributes:          actionFileAttributes(res),
	}
}

// actionFileAttributes returns the attributes of the resource's file block
// res (the top-level one, or an input's) as the action's: each with its
// description for invocations (invocationDescription) and its validators,
// less content_wo. path's exactly-one rule is rebuilt to name path and
// content alone.
func actionFileAttributes(res rschema.SingleNestedAttribute) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{}
	for name, a := range res.Attributes {
		s, ok := a.(rschema.StringAttribute)
		if !ok || name == "content_wo" {
			continue
		}
		validators := s.Validators
		if name == "path" {
			validators = fileSourceValidators("content")
		}
		attrs[name] = schema.StringAttribute{MarkdownDescription: invocationDescription(s.MarkdownDescription), Optional: true, Validators: validators}
	}
	return attrs
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

// actionTimeoutsAttribute returns the framework's action timeouts
// attribute, timeouts.invoke, with its description; the attribute's own
// validator refuses a value that is not a duration at plan.
func actionTimeoutsAttribute(ctx context.Context) schema.Attribute {
	a, _ := timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		InvokeDescription: "How long an invocation may take, the upload and `wait_for_completion` included, such as `\"2h\"`. Defaults to `\"30m\"`.",
	}).(schema.SingleNestedAttribute)
	a.MarkdownDescription = "Time limits, as Go durations."
	return a
}
