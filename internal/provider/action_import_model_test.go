package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var actionFileAttrTypes = map[string]attr.Type{
	"path": types.StringType, "content": types.StringType, "format": types.StringType,
	"encoding": types.StringType, "name": types.StringType, "part_name": types.StringType,
}

func actionFile(t *testing.T, vals map[string]attr.Value) types.Object {
	t.Helper()
	for name := range actionFileAttrTypes {
		if _, ok := vals[name]; !ok {
			vals[name] = types.StringNull()
		}
	}
	obj, d := types.ObjectValue(actionFileAttrTypes, vals)
	if d.HasError() {
		t.Fatal(d)
	}
	return obj
}

// job is the resource's model of the job, with the file's defaults: what
// the resource's checks, hashing and upload read.
func TestImportActionModelJob(t *testing.T) {
	ctx := context.Background()
	rowsNull := types.ListNull(types.ListType{ElemType: types.StringType})
	a := importActionModel{TemplateID: types.StringValue("1"), Rows: rowsNull, Submit: types.BoolValue(true), WaitForCompletion: types.BoolNull(),
		File: actionFile(t, map[string]attr.Value{"path": types.StringValue("/data/gl.tsv")})}
	m, d := a.asImportModel(ctx)
	if d.HasError() {
		t.Fatal(d)
	}
	f, d := fileFrom(ctx, m.File)
	if d.HasError() || f == nil {
		t.Fatalf("file: %v", d)
	}
	if f.Format.ValueString() != "TDF" || f.Name.ValueString() != "gl.tsv" || f.Encoding.ValueString() != "UTF-8" || f.PartName.ValueString() != "file" || !f.ContentWO.IsNull() {
		t.Errorf("file %+v: want the defaults filled in", f)
	}
	if !m.ContentSHA256.IsUnknown() || !m.RowsWO.IsNull() || !m.Rows.IsNull() || !m.Submit.ValueBool() || m.TemplateID.ValueString() != "1" {
		t.Errorf("model %+v", m)
	}

	a.File = types.ObjectUnknown(actionFileAttrTypes)
	if m, d = a.asImportModel(ctx); d.HasError() || !m.File.IsUnknown() {
		t.Errorf("unknown file: %v %v", m.File, d)
	}
	a.File = types.ObjectNull(actionFileAttrTypes)
	a.Rows = rowsValue(t, cells("A"), cells("1"))
	if m, d = a.asImportModel(ctx); d.HasError() || !m.File.IsNull() || !m.Rows.Equal(a.Rows) {
		t.Errorf("rows: %+v %v", m, d)
	}
}

func TestImportActionModelTimeout(t *testing.T) {
	ctx := context.Background()
	tv := func(v attr.Value) timeouts.Value {
		return timeouts.Value{Object: types.ObjectValueMust(map[string]attr.Type{"invoke": types.StringType}, map[string]attr.Value{"invoke": v})}
	}
	if d, diags := (importActionModel{Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"invoke": types.StringType})}}).timeout(ctx); d != defaultCreateTimeout || diags.HasError() {
		t.Errorf("no timeouts: %s %v", d, diags)
	}
	if d, diags := (importActionModel{Timeouts: tv(types.StringNull())}).timeout(ctx); d != defaultCreateTimeout || diags.HasError() {
		t.Errorf("default: %s %v", d, diags)
	}
	if d, diags := (importActionModel{Timeouts: tv(types.StringValue("90s"))}).timeout(ctx); d != 90*time.Second || diags.HasError() {
		t.Errorf("90s: %s %v", d, diags)
	}
	if _, diags := (importActionModel{Timeouts: tv(types.StringValue("5"))}).timeout(ctx); !diags.HasError() {
		t.Error("5: no error")
	}
}
