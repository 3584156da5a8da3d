package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
