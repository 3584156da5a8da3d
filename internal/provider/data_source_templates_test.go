package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// emulatorTemplates are the emulator's templates as ListTemplates returns
// them.
func emulatorTemplates() []etl.Template {
	var all []etl.Template
	for _, t := range emulator.DefaultTemplates() {
		all = append(all, etl.Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName})
	}
	return all
}

// TestFindTemplate: one match is the template; none lists the templates
// of that name in other models, else every template; several list
// themselves; the lookup is said in the attributes' names.
func TestFindTemplate(t *testing.T) {
	all := emulatorTemplates()
	if id, summary, detail := findTemplate(all, etl.TemplateFilter{Name: "GL Actuals", ModelID: modelSales}); id != emulator.SalesGLActualsTemplateID || summary != "" || detail != "" {
		t.Errorf("one match: %q, %q, %q", id, summary, detail)
	}
	for _, tc := range []struct {
		all                     []etl.Template
		f                       etl.TemplateFilter
		wantSummary, wantDetail string
	}{
		{all, etl.TemplateFilter{Name: "Headcount", ModelName: "Sales Model"}, "Template not found",
			`No template matches name "Headcount", model_name "Sales Model". The templates with that name in other models are:` +
				"\n  - Headcount (" + emulator.HeadcountTemplateID + ", Finance Plan)"},
		{all[:2], etl.TemplateFilter{Name: "Payroll"}, "Template not found",
			`No template matches name "Payroll". The templates this token may use are:` + "\n" + describeTemplates(all[:2])},
		{nil, etl.TemplateFilter{Name: "Payroll"}, "Template not found",
			`No template matches name "Payroll". The token may use no template at all: check its permissions (Read Model).`},
		{all, etl.TemplateFilter{Name: "GL Actuals"}, "Several templates match",
			`2 templates match name "GL Actuals"; narrow the lookup with model_id or model_name, or use id. The candidates are:` + "\n" +
				describeTemplates(etl.FilterTemplates(all, etl.TemplateFilter{Name: "GL Actuals"}))},
		{all, etl.TemplateFilter{Name: "GL", ModelID: "1", ModelName: "M"}, "Template not found",
			`No template matches name "GL", model_id "1", model_name "M". The templates this token may use are:` + "\n" + describeTemplates(all)},
	} {
		if id, summary, detail := findTemplate(tc.all, tc.f); id != "" || summary != tc.wantSummary || detail != tc.wantDetail {
			t.Errorf("%+v: %q, %q, %q; want %q, %q", tc.f, id, summary, detail, tc.wantSummary, tc.wantDetail)
		}
	}
	if got, want := describeTemplates(all[:2]), "  - GL Actuals ("+emulator.GLActualsTemplateID+", Finance Plan)\n  - Headcount ("+emulator.HeadcountTemplateID+", Finance Plan)"; got != want {
		t.Errorf("describeTemplates = %q, want %q", got, want)
	}
	if len(all) != len(emulator.DefaultTemplates()) || all[0].ID != emulator.GLActualsTemplateID {
		t.Error("finding changed the list it searched")
	}
}

// A name filter compiles as RE2, or says why not, naming its attribute.
func TestRegexpProblem(t *testing.T) {
	for _, ok := range []string{"^GL ", "(?i)sales"} {
		problemHas(t, ok, regexpProblem("name_regex", ok))
	}
	for _, bad := range []string{"GL(", "a**"} {
		problemHas(t, bad, regexpProblem("name_regex", bad), "name_regex is not a valid regular expression (RE2 syntax", "error parsing regexp")
	}
}

// A template that never ran has a null last_run_time.
func TestLastRunTime(t *testing.T) {
	if got := templateItemOf(etl.Template{}).LastRunTime; !got.IsNull() {
		t.Errorf("never ran: %v, want null", got)
	}
	ran := int64(1700000000000)
	if got := templateItemOf(etl.Template{LastRunTime: &ran}).LastRunTime; !got.Equal(types.Int64Value(ran)) {
		t.Errorf("ran: %v, want %d", got, ran)
	}
}
