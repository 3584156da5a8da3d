package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The etl_import resource's schema (Schema; file.content_wo is the file
// block's, fileAttribute), the checks of its configuration
// (ConfigValidators, ValidateConfig), how its configuration's write-only
// values are read (readWriteOnly), and what its diagnostics say of a job
// that failed after it started (resourceWording).

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
			"rows_wo": schema.ListAttribute{ // rows, write-only
				MarkdownDescription: "Rows to send, as `rows`, kept out of the state. " + writeOnlyNote + " " + exactlyOneData,
				ElementType:         types.ListType{ElemType: types.StringType},
				Optional:            true,
				WriteOnly:           true,
				Validators:          []validator.List{rowsValidator{}},
			},
			"submit": schema.BoolAttribute{
				MarkdownDescription: "Whether to submit the job once its data is sent. Defaults to `false` with `file` and rows, `true` with `inputs`. " +
					"Turned on later, it submits the same job in place.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{submitDefault{}},
			},
			"wait_for_completion": schema.BoolAttribute{
				MarkdownDescription: "Whether the apply waits, up to `timeouts.create`, until the job ends: `ERROR`, `CANCELLED` and `EXPIRED` then fail the apply (with `keep_failed = true`, a warning). Defaults to `false`.",
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
					"`true` keeps it: no plan replaces it (a job Terraform marked tainted also needs `terraform untaint`), and an apply that waited for it warns instead of failing. Changing it updates in place. Defaults to `false`.",
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
	// The data facts: columns, row_count and size_bytes.
	maps.Copy(resp.Schema.Attributes, factsAttributes("The header row's cells; null for write-only data."+dataFactsNote,
		"How many data rows, after the header, the service imports, such as `self.row_count > 0` in a `postcondition`."+dataFactsNote,
		"How many bytes are sent: those `content_sha256` hashes."+dataFactsNote))
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

// readWriteOnly reads rows_wo, file.content_wo and each input's
// file.content_wo from the configuration (what write-only means here:
// writeOnlyData).
func readWriteOnly(ctx context.Context, cfg tfsdk.Config) (writeOnlyData, diag.Diagnostics) {
	wo := writeOnlyData{inputs: map[string]types.String{}}
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
		wo.inputs[key] = f.ContentWO
	}
	return wo, diags
}

func (r *importResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.ExactlyOneOf(path.MatchRoot("file"), path.MatchRoot("rows"), path.MatchRoot("rows_wo"), path.MatchRoot("inputs")),
	}
}

// ValidateConfig reports, when the values are known, a file (top-level or
// an input's) whose format cannot be derived and inline content that the
// encoding cannot represent.
func (r *importResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	resp.Diagnostics.Append(checkInputsConfig(ctx, req.Config)...)
	var fileObj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("file"), &fileObj)...)
	if resp.Diagnostics.HasError() {
		return
	}
	f, diags := fileFrom(ctx, fileObj)
	resp.Diagnostics.Append(diags...)
	if f == nil || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(checkFileConfig(*f)...)
}

// resourceWording is what the resource's diagnostics say of a job that
// failed after it started (its jobRunner's runnerWording): it stays in the
// state, and what the next apply does with it.
var resourceWording = runnerWording{
	afterFailure:    keptInState,
	afterEnded:      keptEnded,
	keptFailed:      keptFailed,
	afterIncomplete: keptIncomplete,
	timeoutSetting:  "timeouts.create",
	maybeCreated:    adoptAdvice,
	createAgain:     "Apply again to create the job and load the inputs.",
}

// adoptAdvice holds what to do after the resource's request to start a
// job lost its answer: look for the job and adopt it, else apply again.
const adoptAdvice = "Look for the job in the service's own application. If it exists, adopt it instead of starting another: " +
	"terraform import etl_import.<name> <job id> (or an import block with that id), then apply. " +
	"If it does not, apply again."

// keptInState ends the error of a job that failed after it was started
// with all its data: what the next apply does with it (resume).
const keptInState = "The job stays in the Terraform state (marked tainted). Run terraform apply again, as it is, with no untaint: " +
	"it resumes this job instead of starting another (it submits the job if it was never submitted, and waits for it while it runs), " +
	"so the data is imported once. Only a job that ended in ERROR, CANCELLED or EXPIRED without importing is replaced by a new job. " +
	"The plan shows the tainted job as replaced; the apply's warning names the job it resumed. Destroying it never deletes imported data."

// keptEnded ends the error of a job that ended in ERROR, CANCELLED or
// EXPIRED: it imported nothing, so the next apply replaces it.
const keptEnded = "The job stays in the Terraform state, marked tainted. It imported nothing, so the next terraform apply replaces it with a new job " +
	"that imports the data: find why it failed in the job's details in the service's own application and fix that first (the data, the template or the model), " +
	"or the new job fails the same way. To keep the failed job in the state instead, set keep_failed = true and run terraform untaint with this resource's address. " +
	"Destroying it never deletes imported data."

// keptFailed ends the warning of a job that ended in ERROR, CANCELLED or
// EXPIRED while keep_failed is true: it stays, and no apply replaces it.
const keptFailed = "keep_failed is true, so the job stays in the Terraform state and no apply replaces it. " +
	"To import the data with a new job, set keep_failed = false (the next plan replaces the job), or run: " + replaceCommand + "."

// keptIncomplete ends the error of a job whose inputs were not all loaded.
const keptIncomplete = "The job stays in the Terraform state, marked tainted. It never received all its data, so Terraform never submits it: " +
	"the next terraform apply replaces it with a new job that loads every input. Destroying it never deletes imported data."
