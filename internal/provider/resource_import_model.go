package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

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
	ContentSHA256     types.String   `tfsdk:"content_sha256"`
	Status            types.String   `tfsdk:"status"`
	Name              types.String   `tfsdk:"name"`
	ModelID           types.String   `tfsdk:"model_id"`
	ModelName         types.String   `tfsdk:"model_name"`
	UserName          types.String   `tfsdk:"user_name"`
	CreatedDate       types.Int64    `tfsdk:"created_date"`
	UpdatedDate       types.Int64    `tfsdk:"updated_date"`
	Columns           types.List     `tfsdk:"columns"`    // see dataFacts
	RowCount          types.Int64    `tfsdk:"row_count"`  // see dataFacts
	SizeBytes         types.Int64    `tfsdk:"size_bytes"` // see dataFacts
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

type fileModel struct {
	Path     types.String `tfsdk:"path"`
	Content  types.String `tfsdk:"content"`
	Format   types.String `tfsdk:"format"`
	Encoding types.String `tfsdk:"encoding"`
	Name     types.String `tfsdk:"name"`
	PartName types.String `tfsdk:"part_name"`

	// ContentWO is null in plan and state: see writeOnlyData.
	ContentWO types.String `tfsdk:"content_wo"`
}

// fileAttrTypes are the types of the file attribute, as its schema has
// them.
var fileAttrTypes = func() map[string]attr.Type {
	t, ok := fileAttribute().GetType().(types.ObjectType)
	if !ok {
		panic(fmt.Sprintf("the file attribute's type is %T, not an object", fileAttribute().GetType()))
	}
	return t.AttrTypes
}()

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

// filePath is the path of a nested file attribute.
func filePath(name string) path.Path { return path.Root("file").AtName(name) }

// fileFrom reads the file block; nil when it is null or unknown.
func fileFrom(ctx context.Context, obj types.Object) (*fileModel, diag.Diagnostics) {
	if obj.IsNull() || obj.IsUnknown() {
		return nil, nil
	}
	var f fileModel
	diags := obj.As(ctx, &f, basetypes.ObjectAsOptions{})
	if diags.HasError() {
		return nil, diags
	}
	return &f, diags
}

// known reports whether v holds a value: neither null nor unknown.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
