package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Schema describes the action's attributes: template_id, file (the
// resource's file block less content_wo), rows, submit,
// wait_for_completion and timeouts.invoke.
func (a *importAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs an import (ETL) job from a template with a flat file or with rows: every invocation starts one new job, " +
			"streams the data as the `etl_import` resource does, optionally submits the job and waits for it, and reports its progress. " +
			"It keeps nothing in state. Invoke it with `terraform apply -invoke=action.etl_import.<name>`, or from a resource's " +
			"`lifecycle { action_trigger { ... } }`. Actions need Terraform 1.14 or later; OpenTofu does not support them (use the `etl_import` resource there).",
		Attributes: map[string]schema.Attribute{
			"template_id": schema.StringAttribute{
				MarkdownDescription: "The id of the template the job is created from, such as `data.etl_template.gl.id`.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"file": actionFileAttribute(),
			"rows": schema.ListAttribute{
				MarkdownDescription: "Rows to import (start with data), header row of column names first, such as `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`. " +
					"Every row must have as many cells as the header. Numbers are sent as strings. Rows whose JSON body would exceed the service's 25 MB limit " +
					"are sent instead as a UTF-8 CSV file through start with file, with a warning. Exactly one of `file` and `rows` must be set.",
				ElementType: types.ListType{ElemType: types.StringType},
				Optional:    true,
				Validators:  []validator.List{rowsValidator{}},
			},
			"submit": schema.BoolAttribute{
				MarkdownDescription: "Whether to submit the job after starting it. Defaults to `false`.",
				Optional:            true,
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Whether to wait until the job reaches a final status (polling with backoff, bounded by `timeouts.invoke`), reporting each status. " +
					"`COMPLETED` succeeds; `ERROR`, `CANCELLED` and `EXPIRED` fail the invocation with the job's id and status. Defaults to `false`: " +
					"the invocation then ends once the job is started (and submitted).",
				Optional: true,
			},
			"timeouts": actionTimeoutsAttribute(ctx),
		},
	}
}

// actionFileAttribute returns the action's file block: the resource's file
// block (each attribute's description and validators) less content_wo,
// which an action has no use for since it keeps nothing in state. path's
// exactly-one rule is rebuilt to name path and content alone.
func actionFileAttribute() schema.Attribute {
	res, _ := fileAttribute().(rschema.SingleNestedAttribute)
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
		attrs[name] = schema.StringAttribute{MarkdownDescription: s.MarkdownDescription, Optional: true, Validators: validators}
	}
	return schema.SingleNestedAttribute{
		MarkdownDescription: "A flat file to import (start with file). Exactly one of `file` and `rows` must be set; in `file`, exactly one of `path` and `content`.",
		Optional:            true,
		Attributes:          attrs,
	}
}

// actionTimeoutsAttribute returns the framework's action timeouts
// attribute, timeouts.invoke, with its description; the attribute's own
// validator refuses a value that is not a duration at plan.
func actionTimeoutsAttribute(ctx context.Context) schema.Attribute {
	a, _ := timeouts.AttributesWithOpts(ctx, timeouts.Opts{
		InvokeDescription: "How long the invocation may take, the upload and `wait_for_completion` included, as a Go duration such as `\"30m\"` or `\"2h\"`. " +
			"Defaults to `\"30m\"`.",
	}).(schema.SingleNestedAttribute)
	a.MarkdownDescription = "How long an invocation may take: `invoke`."
	return a
}
