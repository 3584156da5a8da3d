package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// privateAdoptedKey marks, in the resource's private state, a job that was
// imported and has not yet adopted its configuration.
const privateAdoptedKey = "adopted"

var privateAdoptedValue = []byte(`true`)

// privateGetter is the read side of the framework's private state.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

func isAdopted(ctx context.Context, p privateGetter) bool {
	if p == nil {
		return false
	}
	v, _ := p.GetKey(ctx, privateAdoptedKey)
	return len(v) > 0
}

// replaceDecision is the RequiresReplace rule of every data-defining
// attribute: a change replaces the job, except while an imported job adopts
// its configuration (private flag set, prior value null).
func replaceDecision(ctx context.Context, stateRawNull, planRawNull bool, stateValue, planValue attr.Value, priv privateGetter) bool {
	if stateRawNull || planRawNull {
		return false // create or destroy
	}
	if planValue.Equal(stateValue) {
		return false
	}
	if stateValue.IsNull() && isAdopted(ctx, priv) {
		return false
	}
	return true
}

const replaceDescription = "A change starts a new job (replacement), except on the first apply after an import, which adopts the configuration."

// replaceUnlessAdopting returns the replace modifiers for each type.
type replaceUnlessAdopting struct{}

func (replaceUnlessAdopting) Description(context.Context) string { return replaceDescription }
func (replaceUnlessAdopting) MarkdownDescription(context.Context) string {
	return replaceDescription
}

func (m replaceUnlessAdopting) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	resp.RequiresReplace = replaceDecision(ctx, req.State.Raw.IsNull(), req.Plan.Raw.IsNull(), req.StateValue, resp.PlanValue, req.Private)
}

func (m replaceUnlessAdopting) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	resp.RequiresReplace = replaceDecision(ctx, req.State.Raw.IsNull(), req.Plan.Raw.IsNull(), req.StateValue, resp.PlanValue, req.Private)
}

func (m replaceUnlessAdopting) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	resp.RequiresReplace = replaceDecision(ctx, req.State.Raw.IsNull(), req.Plan.Raw.IsNull(), req.StateValue, resp.PlanValue, req.Private)
}

// fileDefault plans the default of file.format or file.name from the
// configured file.path, file.name and file.format: the extension of the
// path (or name) gives the format, the path's base name gives the name,
// and inline content is named data.<ext>. A default that depends on an
// unknown value is unknown; one that cannot be derived stays null (the
// resource's config validation reports it).
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
