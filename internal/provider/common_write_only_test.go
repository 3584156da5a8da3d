package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestWriteOnlyDataHelpers(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("A"), cells("1"))
	none := importSpec{Rows: types.ListNull(rows.ElementType(ctx))}

	if l, at := (writeOnlyData{rows: rows}).rowsOf(none); !l.Equal(rows) || !at.Equal(path.Root("rows_wo")) {
		t.Errorf("rows_wo: %v at %s", l, at)
	}
	if l, at := (writeOnlyData{}).rowsOf(importSpec{Rows: rows}); !l.Equal(rows) || !at.Equal(path.Root("rows")) {
		t.Errorf("rows: %v at %s", l, at)
	}
	if l, _ := (writeOnlyData{}).rowsOf(none); !l.IsNull() {
		t.Errorf("no rows: %v", l)
	}

	f := fileModel{Content: types.StringNull(), ContentWO: types.StringNull()}
	if v, name := (writeOnlyData{content: types.StringValue("A\n1\n")}).withContent(f).inline(); v.ValueString() != "A\n1\n" || name != "content_wo" {
		t.Errorf("content_wo: %v %s", v, name)
	}
	f.Content = types.StringValue("B\n2\n")
	if v, name := f.inline(); v.ValueString() != "B\n2\n" || name != "content" {
		t.Errorf("content: %v %s", v, name)
	}

	withInput := writeOnlyData{inputs: map[string]types.String{"Load Actuals": types.StringValue("A\n1\n")}}
	if c := withInput.forInput("Load Actuals"); c.content.ValueString() != "A\n1\n" || !c.rows.IsNull() {
		t.Errorf("forInput: %+v", c)
	}
	if c := withInput.forInput("Load Rates"); !c.content.IsNull() {
		t.Errorf("forInput of an input without content_wo: %+v", c)
	}

	// From a configuration: rows_wo, and file.content_wo of a null file.
	typ := importType()
	cfg := tfsdk.Config{Schema: importSchema(t), Raw: tfValue(t, typ, map[string]any{"template_id": "1", "rows_wo": [][]string{{"A"}, {"1"}}})}
	wo, d := readWriteOnly(ctx, cfg)
	if d.HasError() || len(wo.rows.Elements()) != 2 || !wo.content.IsNull() {
		t.Fatalf("readWriteOnly: %+v %v", wo, d)
	}
	cfg.Raw = tfValue(t, typ, map[string]any{"template_id": "1", "file": map[string]any{"content_wo": "A\n1\n", "format": "CSV"}})
	if wo, d = readWriteOnly(ctx, cfg); d.HasError() || wo.content.ValueString() != "A\n1\n" || !wo.rows.IsNull() {
		t.Fatalf("readWriteOnly: %+v %v", wo, d)
	}
}
