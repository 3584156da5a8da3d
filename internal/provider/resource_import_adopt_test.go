package provider

import (
	"context"
	"testing"

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
		if ok := r.checkAdoptedTemplate(ctx, tc.template, salesGL, &diags); ok != tc.ok || ok == diags.HasError() {
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
