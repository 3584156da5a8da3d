package provider

import (
	"regexp"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

func TestFilterTemplates(t *testing.T) {
	var all []etl.Template
	for _, t := range emulator.DefaultTemplates() {
		all = append(all, etl.Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName})
	}
	ids := func(ts []etl.Template) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	cases := []struct {
		f    templateFilter
		want []string
	}{
		{templateFilter{}, []string{emulator.GLActualsTemplateID, emulator.HeadcountTemplateID, emulator.SalesVolumesTemplateID, emulator.SalesGLActualsTemplateID,
			emulator.TwoStepTemplateID, emulator.NoStepTemplateID, emulator.SameStepNameTemplateID}},
		{templateFilter{Name: "GL Actuals"}, []string{emulator.GLActualsTemplateID, emulator.SalesGLActualsTemplateID}},
		{templateFilter{Name: "GL Actuals", ModelName: "Sales Model"}, []string{emulator.SalesGLActualsTemplateID}},
		{templateFilter{ModelID: modelFinance}, []string{emulator.GLActualsTemplateID, emulator.HeadcountTemplateID, emulator.TwoStepTemplateID, emulator.NoStepTemplateID}},
		{templateFilter{NameRegex: regexp.MustCompile("^S"), ModelID: modelSales}, []string{emulator.SalesVolumesTemplateID}},
		{templateFilter{Name: "Payroll"}, nil},
	}
	for _, tc := range cases {
		got := ids(filterTemplates(all, tc.f))
		if len(got) != len(tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
			}
		}
	}
	if len(all) != len(emulator.DefaultTemplates()) || all[0].ID != emulator.GLActualsTemplateID {
		t.Error("filtering changed the list it filtered")
	}

	if got, want := describeTemplates(all[:2]), "  - GL Actuals ("+emulator.GLActualsTemplateID+", Finance Plan)\n  - Headcount ("+emulator.HeadcountTemplateID+", Finance Plan)"; got != want {
		t.Errorf("describeTemplates = %q, want %q", got, want)
	}
	if got, want := (templateFilter{Name: "GL", ModelID: "1", ModelName: "M"}).describe(), `name "GL", model_id "1", model_name "M"`; got != want {
		t.Errorf("describe = %q, want %q", got, want)
	}
}
