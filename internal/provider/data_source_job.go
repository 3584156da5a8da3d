package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// jobModel holds the etl_job data source's configuration (id) and state:
// what the service reports of the job.
type jobModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Status      types.String `tfsdk:"status"`
	ModelID     types.String `tfsdk:"model_id"`
	ModelName   types.String `tfsdk:"model_name"`
	UserName    types.String `tfsdk:"user_name"`
	CreatedDate types.Int64  `tfsdk:"created_date"`
	UpdatedDate types.Int64  `tfsdk:"updated_date"`
}

// jobIDValidator refuses, at plan, an id that is not a job id (18 or 19
// decimal digits, etl.ValidJobID), so that a typo fails before any
// request.
var jobIDValidator = stringRule{description: "must be a job id: 18 or 19 decimal digits",
	rule: func(name, v string) string {
		if etl.ValidJobID(v) {
			return ""
		}
		return fmt.Sprintf("%s: %q is not a job id: a job id is 18 or 19 decimal digits, such as 640101874288689160 (the id attribute of an etl_import).", name, v)
	}}

// newJobDataSource returns etl_job, which reads one job by id: for
// pipelines that wait on, or report, jobs started elsewhere. The id to
// look up is checked at plan; the job's fields are all computed.
func newJobDataSource() datasource.DataSource {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	return &dataSource[jobModel]{name: "job", read: readJob, schema: schema.Schema{
		MarkdownDescription: "Reads one import (ETL) job by id, such as a job started elsewhere: its status, model and owner. " +
			"The service lists no jobs, so a job is found only by its id.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The job id: 18 or 19 decimal digits, such as `etl_import.gl.id`.",
				Required:            true,
				Validators:          []validator.String{jobIDValidator},
			},
			"name":       computed("The job's name (the template's name)."),
			"status":     computed("The job's status: `EDITING`, `NOT_STARTED`, `SUBMITTED`, `RUNNING`, `WAITING`, `QUEUED`, `COMPLETED`, `ERROR`, `CANCELLED` or `EXPIRED`."),
			"model_id":   computed("The id of the model the job imports into."),
			"model_name": computed("The name of the model the job imports into."),
			"user_name":  computed("The display name of the user who owns the job."),
			"created_date": schema.Int64Attribute{
				MarkdownDescription: "When the job was created, in milliseconds since the Unix epoch.",
				Computed:            true,
			},
			"updated_date": schema.Int64Attribute{
				MarkdownDescription: "When the job was last updated, in milliseconds since the Unix epoch; null when the service gives none.",
				Computed:            true,
			},
		},
	}}
}

// readJob gets the job by id and sets what the service reports of it. An
// unknown job is an error on id that says what to check; id stays as
// configured.
func readJob(ctx context.Context, c *etl.Client, m *jobModel, diags *diag.Diagnostics) {
	id := m.ID.ValueString()
	job, err := c.GetJob(ctx, id)
	if etl.IsNotFound(err) {
		diags.AddAttributeError(path.Root("id"), "Import job not found",
			fmt.Sprintf("The service does not know job %s: check the id, and that the token is of the hub and customer the job was started on. "+
				"A job the service no longer keeps is not found either.", id))
		return
	}
	if err != nil {
		diags.AddAttributeError(path.Root("id"), fmt.Sprintf("Reading import job %s failed", id), explain(err))
		return
	}
	*m = jobModelOf(job, m.ID)
}

// jobModelOf converts a job the service returned, looked up by id, into
// the data source's state; updated_date is null when the service gives
// none.
func jobModelOf(j *etl.Job, id types.String) jobModel {
	m := jobModel{
		ID: id, Name: types.StringValue(j.Name), Status: types.StringValue(string(j.Status)),
		ModelID: types.StringValue(j.ModelID), ModelName: types.StringValue(j.ModelName), UserName: types.StringValue(j.UserName),
		CreatedDate: types.Int64Value(j.CreatedDate), UpdatedDate: types.Int64Null(),
	}
	if j.UpdatedDate != nil {
		m.UpdatedDate = types.Int64Value(*j.UpdatedDate)
	}
	return m
}
