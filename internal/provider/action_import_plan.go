package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// ConfigValidators requires exactly one of file, rows and inputs. It is
// one of the action's checks before it runs, which are the resource's: the
// same attribute validators (actionFileAttribute, actionInputsAttribute),
// this rule, the file block's cross-attribute checks (ValidateConfig), and
// at plan the check of the file's bytes (a missing file, a bad encoding,
// ragged rows) that the resource makes while it hashes them, and with
// inputs the resolution of their keys (ModifyPlan).
func (a *importAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{
		actionvalidator.ExactlyOneOf(path.MatchRoot("file"), path.MatchRoot("rows"), path.MatchRoot("inputs")),
	}
}

// ValidateConfig reports, when the values are known, a file (top-level or
// an input's) whose format cannot be derived and inline content that the
// encoding cannot represent.
func (a *importAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var cfg importActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	inputs, diags := cfg.specInputs(ctx)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(checkInputFiles(ctx, inputs)...)
	f, diags := cfg.file(ctx)
	resp.Diagnostics.Append(diags...)
	if f == nil || resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(checkFileConfig(*f)...)
}

// ModifyPlan checks the data as the resource's plan does: it reads and
// hashes the file (or encodes the content or the rows) and reports a
// problem on its attribute; with inputs, it resolves their keys against
// the template and checks each input (planInputs), and the choice of
// submit. Terraform calls it at plan, and again at apply with the values
// that were unknown at plan.
func (a *importAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var cfg importActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s, diags := cfg.spec(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !s.Inputs.IsNull() {
		resp.Diagnostics.Append(checkSubmitWithInputs(cfg.Submit, cfg.WaitForCompletion)...)
		resp.Diagnostics.Append(a.planInputs(ctx, s)...)
		return
	}
	_, diags = planContentHash(ctx, s, writeOnlyData{}, nil, a.tuning.bodyLimit())
	resp.Diagnostics.Append(diags...)
}
