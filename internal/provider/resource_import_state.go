package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// What etl_import keeps of a job: its model in state (importModel), its
// identity, how a job is imported by its id (ImportState), and the keys
// of its private state, with how they are read and written.

// importModel is an etl_import's plan or state.
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
	m.UpdatedDate = types.Int64PointerValue(j.UpdatedDate)
}

// spec is the import m plans.
func (m importModel) spec() importSpec {
	return importSpec{TemplateID: m.TemplateID, File: m.File, Rows: m.Rows, Inputs: m.Inputs,
		ContentSHA256: m.ContentSHA256, Submit: m.Submit, WaitForCompletion: m.WaitForCompletion}
}

// IdentitySchema gives etl_import an identity (Terraform 1.12 and later,
// OpenTofu 1.12): the id of its job, which import blocks may name with
// `identity = { id = "..." }`.
func (r *importResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The id of the import job, 18 or 19 decimal digits (the resource's `id`).",
			},
		},
	}
}

// setIdentity records the job id as the resource's identity. A CLI that
// does not know identities (Terraform before 1.12) sends none to set.
func setIdentity(ctx context.Context, id types.String, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || !known(id) {
		return
	}
	diags.Append(identity.SetAttribute(ctx, path.Root("id"), id)...)
}

// ImportState adopts an existing job by its id. The next apply takes the
// configuration over without starting a job.
func (r *importResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	raw := req.ID // terraform import's, or an import block's id; else its identity's
	if raw == "" && req.Identity != nil {
		var id types.String
		resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &id)...)
		raw = id.ValueString()
	}
	id := strings.TrimSpace(raw)
	if !etl.ValidJobID(id) {
		resp.Diagnostics.AddError("Invalid job id",
			fmt.Sprintf("%q is not a job id: import an etl_import by the id of its job, 18 or 19 decimal digits such as 640101874288689160.", raw))
		return
	}
	setIdentity(ctx, types.StringValue(id), resp.Identity, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdoptedKey, privateAdoptedValue)...)
}

// The keys etl_import keeps in its private state.
const (
	// privateAdoptedKey marks a job that was imported and has not yet
	// adopted its configuration (privateAdoptedValue).
	privateAdoptedKey = "adopted"
	// privatePlannedCreateKey holds, in the plan of a new object only,
	// what its job imports and which live job it replaces (plannedCreate).
	privatePlannedCreateKey = "planned_create"
	// privateLiveKey holds, in the plan of a live object, its job id: the
	// second plan of the object's replacement sees it (planJobChange).
	privateLiveKey = "live_job"
	// privateInputStepsKey holds the steps a job's inputs were loaded
	// into, with their input ids then (saveInputSteps).
	privateInputStepsKey = "input_steps"
	// privateRehashedKey marks, in a plan, a content_sha256 recorded anew
	// for the same data (importjob.ChangePlan.Rehash).
	privateRehashedKey = "rehashed"
	// privateRefuseDeleteKey holds, in the plan of a replacement whose new
	// job's data could not be read, the problems its Delete fails with
	// (refuseDelete).
	privateRefuseDeleteKey = "refuse_delete"
	// privateUnverifiedKey marks, in the plan of a change in place, data
	// named in another place than the state's that the plan could not read
	// (privateAdoptedValue): the apply reads it (verifyKeptData).
	privateUnverifiedKey = "unverified"
)

// privateAdoptedValue is the value of a flag kept in private state
// (privateAdoptedKey, privateRehashedKey) while it is set.
var privateAdoptedValue = []byte(`true`)

// privateStore is the framework's private state, read and written.
type privateStore interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// isAdopted reports whether private state marks an imported job that has
// not yet adopted its configuration.
func isAdopted(ctx context.Context, p privateStore) bool {
	_, ok := privateJSON[bool](ctx, p, privateAdoptedKey)
	return ok
}

// privateJSON reads the JSON value of key from private state into a new
// T; false when there is none or it cannot be read.
func privateJSON[T any](ctx context.Context, p privateStore, key string) (*T, bool) {
	if p == nil {
		return nil, false
	}
	b, diags := p.GetKey(ctx, key)
	var v T
	if diags.HasError() || len(b) == 0 || json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return &v, true
}

// setPrivateJSON stores v as the JSON value of key in private state.
func setPrivateJSON(ctx context.Context, p privateStore, key string, v any, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		diags.AddError("Keeping private state failed", fmt.Sprintf("The provider could not encode its private state %q: %s. This is a bug in the provider; please report it.", key, err))
		return
	}
	diags.Append(p.SetKey(ctx, key, b)...)
}
