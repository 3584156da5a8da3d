package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func (r *importResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts one import job from a template with a file, rows, or one input per step of the template, and keeps the job in the state.",
		Attributes: map[string]schema.Attribute{
			"template_id": schema.StringAttribute{
				MarkdownDescription: "The id of the template the job imports with, such as `data.etl_template.gl.id`. Changing it starts a new job.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"file":   fileAttribute(),
			"inputs": inputsAttribute(),
			"rows": schema.ListAttribute{
				MarkdownDescription: "Rows to send, header row first, such as `[[\"Account\", \"Amount\"], [\"4000\", \"100\"]]`; every row as wide as the header. " +
					"Sent as a JSON body, or as a CSV file when that body would pass 25 MB. " + exactlyOneData + " " + rowsCRLFNote,
				ElementType: types.ListType{ElemType: types.StringType},
				Optional:    true,
				Validators:  []validator.List{rowsValidator{}},
			},
			"rows_wo": rowsWOAttribute(),
			"submit": schema.BoolAttribute{
				MarkdownDescription: "Whether to submit the job once its data is sent. Defaults to `false` with `file` and rows, `true` with `inputs`. " +
					"Turned on later, it submits the same job in place.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{submitDefault{}},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Whether the apply waits, up to `timeouts.create`, until the job ends: `ERROR`, `CANCELLED` and `EXPIRED` then fail the apply. Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"cancel_on_destroy": schema.BoolAttribute{
				MarkdownDescription: "Whether `terraform destroy` first cancels a job that has not ended. Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"keep_failed": schema.BoolAttribute{
				MarkdownDescription: "Whether a job that ended in `ERROR`, `CANCELLED` or `EXPIRED`, which imported nothing, stays in the state. " +
					"By default the next plan replaces such a job with one new job, however its failure was seen (the apply that waited for it, a refresh, an import by id). " +
					"`true` keeps it: no plan replaces it, and an apply that waited for it warns instead of failing. Changing it updates in place. Defaults to `false`.",
				Optional: true,
			},
			"content_sha256": schema.StringAttribute{
				MarkdownDescription: "SHA-256 (hex) of the bytes sent, computed at plan: a new value starts a new job." + inputsHashDescription,
				Computed:            true,
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
	maps.Copy(resp.Schema.Attributes, jobAttributes())
	maps.Copy(resp.Schema.Attributes, dataFactsAttributes())
}

// jobAttributes are the job's id and what the service says of it.
func jobAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "The job id: 18 or 19 decimal digits.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"status": schema.StringAttribute{
			MarkdownDescription: "The job's status as last read, such as `RUNNING` or `COMPLETED`; or " + statusNotFoundDoc,
			Computed:            true,
		},
		"name": schema.StringAttribute{
			MarkdownDescription: "The job's name (the template's name).",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"model_id": schema.StringAttribute{
			MarkdownDescription: "The id of the model the job imports into, known in the plan of a new job.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"model_name": schema.StringAttribute{
			MarkdownDescription: "The name of the model the job imports into, known in the plan of a new job.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"user_name": schema.StringAttribute{
			MarkdownDescription: "The display name of the user who owns the job.",
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"created_date": schema.Int64Attribute{
			MarkdownDescription: "When the job was created, in milliseconds since the Unix epoch.",
			Computed:            true,
			PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		},
		"updated_date": schema.Int64Attribute{
			MarkdownDescription: "When the job was last updated, in milliseconds since the Unix epoch; null when the service gives none.",
			Computed:            true,
		},
	}
}

// timeoutsAttribute is the timeouts attribute, with descriptions.
func timeoutsAttribute(ctx context.Context) schema.Attribute {
	a := timeouts.Attributes(ctx, timeouts.Opts{
		Create:            true,
		Delete:            true,
		CreateDescription: "How long the upload and `wait_for_completion` may take, such as `\"2h\"`. Defaults to `30m`.",
		DeleteDescription: "How long cancelling the job (`cancel_on_destroy`) may take. Defaults to `5m`.",
	})
	if sn, ok := a.(schema.SingleNestedAttribute); ok {
		sn.MarkdownDescription = "Time limits, as Go durations."
		return sn
	}
	return a
}
