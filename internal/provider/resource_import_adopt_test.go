package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func jobState(id, name, modelID, modelName string) importModel {
	return importModel{ID: types.StringValue(id), Name: types.StringValue(name), ModelID: types.StringValue(modelID), ModelName: types.StringValue(modelName)}
}

func TestAdoptionMismatch(t *testing.T) {
	gl := &etl.Template{ID: emulator.GLActualsTemplateID, Name: "GL Actuals", ModelID: modelFinance, ModelName: "Finance Plan"}
	if p := adoptionMismatch(jobState("1", "GL Actuals", modelFinance, "Finance Plan"), gl); p != "" {
		t.Errorf("the template's own job: %s", p)
	}
	if p := adoptionMismatch(jobState("1", "", modelFinance, "Finance Plan"), gl); p != "" {
		t.Errorf("a job without a name, of the template's model: %s", p)
	}
	for _, job := range []importModel{
		jobState("640101874288689170", "GL Actuals", modelSales, "Sales Model"), // same name, other model
		jobState("640101874288689170", "Headcount", modelFinance, "Finance Plan"),
		jobState("640101874288689170", "", modelSales, "Sales Model"),
	} {
		p := adoptionMismatch(job, gl)
		for _, want := range []string{"640101874288689170", job.Name.ValueString(), job.ModelID.ValueString(), job.ModelName.ValueString(),
			emulator.GLActualsTemplateID, `"GL Actuals"`, modelFinance, "Finance Plan", "no job was started"} {
			if !strings.Contains(p, want) {
				t.Errorf("mismatch of %s: %q does not name %q", job.Name, p, want)
			}
		}
	}
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
