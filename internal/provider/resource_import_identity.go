package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// importIdentityModel is the identity of an etl_import in state: its job.
type importIdentityModel struct {
	ID types.String `tfsdk:"id"`
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
	diags.Append(identity.Set(ctx, importIdentityModel{ID: id})...)
}

// importedID is the job id an import names: the string id of
// `terraform import` or an import block's `id`, else its identity's id.
func importedID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" || req.Identity == nil {
		return req.ID
	}
	var id types.String
	diags.Append(req.Identity.GetAttribute(ctx, path.Root("id"), &id)...)
	return id.ValueString()
}

// identityFromState sets the identity from the job id in state, when the
// state holds one (after a create that failed before its job existed, it
// holds none).
func identityFromState(ctx context.Context, state tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || state.Raw.IsNull() {
		return
	}
	var id types.String
	if d := state.GetAttribute(ctx, path.Root("id"), &id); d.HasError() {
		return
	}
	setIdentity(ctx, id, identity, diags)
}
