package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// adopting reports whether a change of an attribute whose prior value is
// prior is an imported job adopting its configuration (importjob.Adopting:
// the private flag is set, and the prior value null) rather than a change
// of the job.
func adopting(ctx context.Context, prior attr.Value, priv privateGetter) bool {
	return importjob.Adopting(isAdopted(ctx, priv), !prior.IsNull())
}

// fileDefault plans the default of file.format or file.name from the
// configured file block, by the one rule of common_file_defaults.go (withDefaults).
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
