package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// adopting reports whether a change of an attribute whose prior value is
// prior is an imported job adopting its configuration (the private flag is
// set and the prior value null) rather than a change of the job.
func adopting(ctx context.Context, prior attr.Value, priv privateGetter) bool {
	return prior.IsNull() && isAdopted(ctx, priv)
}

const replaceDescription = "A change starts a new job (replacement), except on the first apply after an import, which adopts the configuration."

// The RequiresReplace rule of an attribute that defines the job: a change
// replaces the job (the framework's RequiresReplaceIf leaves out create,
// destroy and unchanged values), except while it is adopting.
var (
	replaceString = stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !adopting(ctx, req.StateValue, req.Private)
	}, replaceDescription, replaceDescription)
	replaceBool = boolplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !adopting(ctx, req.StateValue, req.Private)
	}, replaceDescription, replaceDescription)
	replaceList = listplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !adopting(ctx, req.StateValue, req.Private)
	}, replaceDescription, replaceDescription)
)

const replaceKnownDescription = replaceDescription + " A value unknown until apply is compared at apply instead: a different value then fails the apply without starting a job."

// replaceKnownString is replaceString for the attributes the apply checks
// (template_id, file.format, file.encoding: see checkUnchangedAtApply): a
// value unknown at plan time may turn out unchanged, so it plans no
// replacement, and the apply compares it once known.
var replaceKnownString = stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.PlanValue.IsUnknown() && !adopting(ctx, req.StateValue, req.Private)
}, replaceKnownDescription, replaceKnownDescription)

// fileDefault plans the default of file.format or file.name from the
// configured file block, by the one rule of file_defaults.go (withDefaults).
// A default that depends on an unknown value is unknown; one that cannot
// be derived stays null (the resource's config validation reports it).
type fileDefault struct {
	description string
	of          func(fileModel) types.String
}

var (
	formatDefault = fileDefault{"Defaults to the format matching the extension of file.path (or file.name).",
		func(f fileModel) types.String { return f.Format }}
	nameDefault = fileDefault{"Defaults to the base name of file.path, or data.<ext> for inline content.",
		func(f fileModel) types.String { return f.Name }}
)

func (m fileDefault) Description(context.Context) string             { return m.description }
func (m fileDefault) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m fileDefault) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	var obj types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, req.Path.ParentPath(), &obj)...)
	f, diags := fileFrom(ctx, obj)
	resp.Diagnostics.Append(diags...)
	if f == nil || resp.Diagnostics.HasError() {
		return
	}
	resp.PlanValue = m.of(withDefaults(*f))
}
