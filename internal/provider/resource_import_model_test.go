package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestSetJob(t *testing.T) {
	updated := int64(1700000000500)
	m := importModel{ID: types.StringValue("640101874288689160")}
	m.setJob(&etl.Job{Status: etl.StatusRunning, Name: "GL Actuals", ModelID: "600000000000000001", ModelName: "Finance Plan",
		UserName: "Ana", CreatedDate: 1700000000000, UpdatedDate: &updated})
	if m.ID.ValueString() != "640101874288689160" || m.Status.ValueString() != "RUNNING" || m.Name.ValueString() != "GL Actuals" ||
		m.ModelID.ValueString() != "600000000000000001" || m.ModelName.ValueString() != "Finance Plan" || m.UserName.ValueString() != "Ana" ||
		m.CreatedDate.ValueInt64() != 1700000000000 || m.UpdatedDate.ValueInt64() != updated {
		t.Fatalf("applied %+v", m)
	}
	// A job the service gives without an id or an updated date keeps the id
	// and has no updated date.
	m.setJob(&etl.Job{Status: etl.StatusCompleted})
	if m.ID.ValueString() != "640101874288689160" || m.Status.ValueString() != "COMPLETED" || !m.UpdatedDate.IsNull() {
		t.Fatalf("applied %+v", m)
	}
}

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
