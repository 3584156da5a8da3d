package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

type importModel struct {
	ID                types.String   `tfsdk:"id"`
	TemplateID        types.String   `tfsdk:"template_id"`
	File              types.Object   `tfsdk:"file"`
	Rows              types.List     `tfsdk:"rows"`
	RowsWO            types.List     `tfsdk:"rows_wo"` // null in plan and state: see writeOnlyData
	Inputs            types.Map      `tfsdk:"inputs"`
	Submit            types.Bool     `tfsdk:"submit"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	CancelOnDestroy   types.Bool     `tfsdk:"cancel_on_destroy"`
	KeepFailed        types.Bool     `tfsdk:"keep_failed"`
	ContentSHA256     types.String   `tfsdk:"content_sha256"`
	Status            types.String   `tfsdk:"status"`
	Name              types.String   `tfsdk:"name"`
	ModelID           types.String   `tfsdk:"model_id"`
	ModelName         types.String   `tfsdk:"model_name"`
	UserName          types.String   `tfsdk:"user_name"`
	CreatedDate       types.Int64    `tfsdk:"created_date"`
	UpdatedDate       types.Int64    `tfsdk:"updated_date"`
	dataFacts                        // columns, row_count, size_bytes
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

// setJob copies what the service says of the job j (its id, status, model,
// user and dates) into m.
func (m *importModel) setJob(j *etl.Job) {
	if j.ID != "" {
		m.ID = types.StringValue(j.ID)
	}
	m.Status = types.StringValue(string(j.Status))
	m.Name = types.StringValue(j.Name)
	m.ModelID = types.StringValue(j.ModelID)
	m.ModelName = types.StringValue(j.ModelName)
	m.UserName = types.StringValue(j.UserName)
	m.CreatedDate = types.Int64Value(j.CreatedDate)
	if j.UpdatedDate != nil {
		m.UpdatedDate = types.Int64Value(*j.UpdatedDate)
	} else {
		m.UpdatedDate = types.Int64Null()
	}
}

// spec is the import m plans.
func (m importModel) spec() importSpec {
	return importSpec{TemplateID: m.TemplateID, File: m.File, Rows: m.Rows, RowsWO: m.RowsWO, Inputs: m.Inputs,
		ContentSHA256: m.ContentSHA256, Submit: m.Submit, WaitForCompletion: m.WaitForCompletion}
}
