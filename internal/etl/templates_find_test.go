package etl

import (
	"errors"
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

	if got, want := DescribeTemplates(all[:2]), "  - GL Actuals ("+emulator.GLActualsTemplateID+", Finance Plan)\n  - Headcount ("+emulator.HeadcountTemplateID+", Finance Plan)"; got != want {
		t.Errorf("DescribeTemplates = %q, want %q", got, want)
	}
	if got, want := (TemplateFilter{Name: "GL", ModelID: "1", ModelName: "M"}).String(), `name "GL", model_id "1", model_name "M"`; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

// TestFindTemplate: one match is the template; none lists the templates
// of that name in other models, else every template; several list
// themselves.
func TestFindTemplate(t *testing.T) {
	all := emulatorTemplates()
	got, err := FindTemplate(all, TemplateFilter{Name: "GL Actuals", ModelID: modelSales})
	if err != nil || got.ID != emulator.SalesGLActualsTemplateID {
		t.Errorf("one match: %+v, %v", got, err)
	}

	_, err = FindTemplate(all, TemplateFilter{Name: "Headcount", ModelName: "Sales Model"})
	var none *TemplateNotFoundError
	if !errors.As(err, &none) || !none.OtherModels || !slices.Equal(idsOf(none.Candidates), []string{emulator.HeadcountTemplateID}) {
		t.Fatalf("a name of another model: %#v", err)
	}
	if want := `No template matches name "Headcount", model_name "Sales Model". The templates with that name in other models are:` +
		"\n  - Headcount (" + emulator.HeadcountTemplateID + ", Finance Plan)"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}

	_, err = FindTemplate(all[:2], TemplateFilter{Name: "Payroll"})
	if !errors.As(err, &none) || none.OtherModels || len(none.Candidates) != 2 {
		t.Fatalf("a name nobody has: %#v", err)
	}
	if want := `No template matches name "Payroll". The templates this token may use are:` + "\n" + DescribeTemplates(all[:2]); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	_, err = FindTemplate(nil, TemplateFilter{Name: "Payroll"})
	if want := `No template matches name "Payroll". The token may use no template at all: check its permissions (Read Model).`; err == nil || err.Error() != want {
		t.Errorf("no template at all: %v, want %q", err, want)
	}

	_, err = FindTemplate(all, TemplateFilter{Name: "GL Actuals"})
	var several *SeveralTemplatesError
	if !errors.As(err, &several) || len(several.Found) != 2 {
		t.Fatalf("two matches: %#v", err)
	}
	if want := `2 templates match name "GL Actuals"; narrow the lookup with model_id or model_name, or use id. The candidates are:` + "\n" + DescribeTemplates(several.Found); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
