package etl

import (
	"regexp"
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The emulator's models.
const (
	modelFinance = "600000000000000001"
	modelSales   = "600000000000000002"
)

// emulatorTemplates are the emulator's templates as ListTemplates returns
// them.
func emulatorTemplates() []Template {
	var all []Template
	for _, t := range emulator.DefaultTemplates() {
		all = append(all, Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName})
	}
	return all
}

// idsOf are the ids of ts, in order.
func idsOf(ts []Template) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func TestFilterTemplates(t *testing.T) {
	all := emulatorTemplates()
	cases := []struct {
		f    TemplateFilter
		want []string
	}{
		{TemplateFilter{}, []string{emulator.GLActualsTemplateID, emulator.HeadcountTemplateID, emulator.SalesVolumesTemplateID, emulator.SalesGLActualsTemplateID,
			emulator.TwoStepTemplateID, emulator.NoStepTemplateID, emulator.SameStepNameTemplateID}},
		{TemplateFilter{Name: "GL Actuals"}, []string{emulator.GLActualsTemplateID, emulator.SalesGLActualsTemplateID}},
		{TemplateFilter{Name: "GL Actuals", ModelName: "Sales Model"}, []string{emulator.SalesGLActualsTemplateID}},
		{TemplateFilter{ModelID: modelFinance}, []string{emulator.GLActualsTemplateID, emulator.HeadcountTemplateID, emulator.TwoStepTemplateID, emulator.NoStepTemplateID}},
		{TemplateFilter{NameRegex: regexp.MustCompile("^S"), ModelID: modelSales}, []string{emulator.SalesVolumesTemplateID}},
		{TemplateFilter{Name: "Payroll"}, nil},
	}
	for _, tc := range cases {
		if got := idsOf(FilterTemplates(all, tc.f)); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
	}
	if len(all) != len(emulator.DefaultTemplates()) || all[0].ID != emulator.GLActualsTemplateID {
		t.Error("filtering changed the list it filtered")
	}
}
