package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestInInput(t *testing.T) {
	var d diag.Diagnostics
	d.AddAttributeError(filePath("path"), "File not found", "file.path: gone.")
	d.AddAttributeWarning(path.Root("rows"), "W", "w.")
	d.AddError("No path", "none.")
	got := inInput("Load Actuals", d)
	want := []struct{ at, detail string }{
		{`inputs["Load Actuals"].file.path`, `In inputs["Load Actuals"]: file.path: gone.`},
		{`inputs["Load Actuals"].rows`, `In inputs["Load Actuals"]: w.`},
		{`inputs["Load Actuals"]`, `In inputs["Load Actuals"]: none.`},
	}
	if len(got) != len(want) || got.ErrorsCount() != 2 || got.WarningsCount() != 1 {
		t.Fatalf("got %v", got)
	}
	for i, w := range want {
		p := got[i].(diag.DiagnosticWithPath).Path()
		if p.String() != w.at || got[i].Detail() != w.detail || got[i].Summary() != d[i].Summary() {
			t.Errorf("%d: %s %q %q, want %s %q", i, p, got[i].Summary(), got[i].Detail(), w.at, w.detail)
		}
	}
}

func TestInputsFromAndValue(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1.08"))
	ins := []keyedInput{
		{key: "b", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rows}},
		{key: "a", inputModel: inputModel{File: goldenFile(t, "A\n1\n", "CSV", "UTF-8"), Rows: types.ListNull(rows.ElementType(ctx))}},
	}
	m, d := inputsValue(ctx, ins)
	if d.HasError() {
		t.Fatal(d)
	}
	back, isKnown, d := inputsFrom(ctx, m)
	if d.HasError() || !isKnown || len(back) != 2 || back[0].key != "a" || back[1].key != "b" {
		t.Fatalf("inputsFrom: %v %v %v", back, isKnown, d)
	}
	if !back[1].Rows.Equal(rows) || !back[0].File.Equal(ins[1].File) {
		t.Error("inputs changed on the way back")
	}
	if _, isKnown, _ := inputsFrom(ctx, types.MapUnknown(types.ObjectType{AttrTypes: inputAttrTypes})); isKnown {
		t.Error("an unknown map is known")
	}
	withUnknown, _ := types.MapValue(types.ObjectType{AttrTypes: inputAttrTypes}, map[string]attr.Value{"a": types.ObjectUnknown(inputAttrTypes)})
	if _, isKnown, _ := inputsFrom(ctx, withUnknown); isKnown {
		t.Error("a map with an unknown entry is known")
	}
}
