package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
	m, d := a.spec(ctx)
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
	if m, d = a.spec(ctx); d.HasError() || !m.File.IsUnknown() {
		t.Errorf("unknown file: %v %v", m.File, d)
	}
	a.File = types.ObjectNull(actionFileAttrTypes)
	a.Rows = rowsValue(t, cells("A"), cells("1"))
	if m, d = a.spec(ctx); d.HasError() || !m.File.IsNull() || !m.Rows.Equal(a.Rows) {
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

// With inputs, the model holds them as the resource's inputs (each file
// with its defaults, content_wo null), and submit defaults to true.
func TestImportActionModelInputs(t *testing.T) {
	ctx := context.Background()
	inputType := types.ObjectType{AttrTypes: map[string]attr.Type{"file": types.ObjectType{AttrTypes: actionFileAttrTypes}, "rows": inputAttrTypes["rows"]}}
	rows := rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1.08"))
	listNull := types.ListNull(rows.ElementType(ctx))
	inputs := types.MapValueMust(inputType, map[string]attr.Value{
		"Load Actuals": types.ObjectValueMust(inputType.AttrTypes, map[string]attr.Value{
			"file": actionFile(t, map[string]attr.Value{"path": types.StringValue("/data/actuals.psv")}), "rows": listNull}),
		"Load Rates": types.ObjectValueMust(inputType.AttrTypes, map[string]attr.Value{"file": types.ObjectNull(actionFileAttrTypes), "rows": rows}),
	})
	a := importActionModel{TemplateID: types.StringValue("1"), File: types.ObjectNull(actionFileAttrTypes), Rows: listNull, Inputs: inputs,
		Submit: types.BoolNull(), WaitForCompletion: types.BoolNull()}
	m, d := a.spec(ctx)
	if d.HasError() {
		t.Fatal(d)
	}
	if !m.Submit.Equal(types.BoolValue(true)) || !m.File.IsNull() {
		t.Errorf("submit %v, file %v: want true (the default with inputs) and no file", m.Submit, m.File)
	}
	ins, isKnown, d := inputsFrom(ctx, m.Inputs)
	if d.HasError() || !isKnown || len(ins) != 2 || ins[0].key != "Load Actuals" || !ins[1].Rows.Equal(rows) || !ins[1].File.IsNull() {
		t.Fatalf("inputs %+v (%v, %v)", ins, isKnown, d)
	}
	f, _ := fileFrom(ctx, ins[0].File)
	if f.Format.ValueString() != "PSV" || f.Name.ValueString() != "actuals.psv" || f.Encoding.ValueString() != "UTF-8" || f.PartName.ValueString() != "file" || !f.ContentWO.IsNull() {
		t.Errorf("input file %+v: want the defaults filled in, content_wo null", f)
	}

	a.Submit = types.BoolValue(false)
	if m, _ = a.spec(ctx); m.Submit.ValueBool() {
		t.Error("submit = false with inputs: want false as configured")
	}
	a.Inputs = types.MapValueMust(inputType, map[string]attr.Value{"Load Rates": types.ObjectUnknown(inputType.AttrTypes)})
	if m, d = a.spec(ctx); d.HasError() {
		t.Fatal(d)
	} else if _, isKnown, _ := inputsFrom(ctx, m.Inputs); isKnown {
		t.Error("an unknown input is known")
	}
	a.Inputs = types.MapNull(inputType)
	a.Submit = types.BoolNull()
	if m, _ = a.spec(ctx); !m.Inputs.IsNull() || m.Submit.ValueBool() {
		t.Errorf("no inputs: inputs %v, submit %v; want null and false", m.Inputs, m.Submit)
	}
}
