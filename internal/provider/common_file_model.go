package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The file block as the resource, each of its inputs and the action read
// it: its model (fileModel, of the schema's types fileAttrTypes), where its
// attributes are (filePath), and its inline text (inline).

// fileModel is a file block: the resource's, an input's, or the action's
// (read into it, configuredFile).
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

// inline returns the file block's inline text, content or content_wo, and
// the name of the attribute that holds it.
func (f fileModel) inline() (types.String, string) {
	if f.Content.IsNull() && !f.ContentWO.IsNull() {
		return f.ContentWO, "content_wo"
	}
	return f.Content, "content"
}
