package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func jobState(id, name, modelID, modelName string) importModel {
	return importModel{ID: types.StringValue(id), Name: types.StringValue(name), ModelID: types.StringValue(modelID), ModelName: types.StringValue(modelName)}
}

// The check reads the template: a mismatch, or a template that cannot be
// read, is an error on template_id.
func TestCheckAdoptedTemplate(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	r := &importResource{jobRunner: jobRunner{client: testClient(t, e)}}
	salesGL := jobState("640101874288689170", "GL Actuals", modelSales, "Sales Model")
	for _, tc := range []struct {
		template string
		ok       bool
		summary  string
	}{
		{emulator.SalesGLActualsTemplateID, true, ""},
		{emulator.GLActualsTemplateID, false, summaryOtherTemplate},
		{unknownTemplateID, false, "Reading template " + unknownTemplateID + " failed"},
	} {
		var diags diag.Diagnostics
		r.checkAdoptedTemplate(ctx, tc.template, salesGL, &diags)
		if ok := !diags.HasError(); ok != tc.ok {
			t.Errorf("template %s: %v, %v", tc.template, ok, diags)
			continue
		}
		if !tc.ok {
			assertAttrError(t, diags, path.Root("template_id"), "640101874288689170")
			if s := diags.Errors()[0].Summary(); s != tc.summary {
				t.Errorf("template %s: summary %q, want %q", tc.template, s, tc.summary)
			}
		}
	}
	if n := len(e.Jobs()); n != 0 {
		t.Errorf("%d jobs, want 0", n)
	}
}

func TestAdopting(t *testing.T) {
	ctx := context.Background()
	a, null := types.StringValue("a"), types.StringNull()
	// The private flag: an imported job adopts its configuration (a value
	// set from null), but a known value that changes still replaces.
	adopted := fakePrivate{privateAdoptedKey: privateAdoptedValue}
	for _, tc := range []struct {
		name  string
		prior attr.Value
		priv  privateGetter
		want  bool
	}{
		{"adopting", null, adopted, true},
		{"adopted but changing a known value", a, adopted, false},
		{"no flag", null, fakePrivate{}, false},
		{"no private state", null, nil, false},
	} {
		if got := adopting(ctx, tc.prior, tc.priv); got != tc.want {
			t.Errorf("%s: adopting %v, want %v", tc.name, got, tc.want)
		}
	}
}
