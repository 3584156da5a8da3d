package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestFileFrom(t *testing.T) {
	ctx := context.Background()
	for _, obj := range []types.Object{types.ObjectNull(fileAttrTypes), types.ObjectUnknown(fileAttrTypes)} {
		if f, d := fileFrom(ctx, obj); f != nil || d.HasError() {
			t.Errorf("%s: %v, %v; want nothing", obj, f, d)
		}
	}
	obj := types.ObjectValueMust(fileAttrTypes, map[string]attr.Value{
		"path": types.StringValue("gl.csv"), "content": types.StringNull(), "format": types.StringUnknown(),
		"encoding": types.StringValue("UTF-8"), "name": types.StringNull(), "part_name": types.StringValue("file"), "content_wo": types.StringNull(),
	})
	f, d := fileFrom(ctx, obj)
	if d.HasError() || f == nil || f.Path.ValueString() != "gl.csv" || !f.Format.IsUnknown() || !f.Name.IsNull() {
		t.Fatalf("fileFrom = %+v, %v", f, d)
	}
	if !known(f.Path) || known(f.Format) || known(f.Name) {
		t.Error("known: a value is known; null and unknown are not")
	}
}
