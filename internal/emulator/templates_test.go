package emulator

import (
	"reflect"
	"testing"
)

func TestDefaultTemplatesValues(t *testing.T) {
	ts := DefaultTemplates()
	if len(ts) != 7 {
		t.Fatalf("%d templates", len(ts))
	}
	want := []struct{ id, name, model, modelName, input string }{
		{GLActualsTemplateID, "GL Actuals", "600000000000000001", "Finance Plan", GLActualsInputID},
		{HeadcountTemplateID, "Headcount", "600000000000000001", "Finance Plan", HeadcountInputID},
		{SalesVolumesTemplateID, "Sales Volumes", "600000000000000002", "Sales Model", SalesVolumesInputID},
		{SalesGLActualsTemplateID, "GL Actuals", "600000000000000002", "Sales Model", SalesGLActualsInputID},
	}
	for i, w := range want {
		got := ts[i]
		if got.ID != w.id || got.Name != w.name || got.ModelID != w.model || got.ModelName != w.modelName ||
			len(got.Steps) != 1 || got.Steps[0].InputID != w.input || len(got.RequiredColumns) != 2 {
			t.Errorf("template %d = %+v", i, got)
		}
	}
	// Callers must not be able to change the server's templates.
	ts[0].Name = "changed"
	if DefaultTemplates()[0].Name != "GL Actuals" {
		t.Error("DefaultTemplates shares state")
	}
}

func TestNewDefaultTemplates(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		id, name, model, modelName string
		steps                      []any
	}{
		{TwoStepTemplateID, "Actuals and Rates", "600000000000000001", "Finance Plan", []any{
			map[string]any{"stepName": "Load Actuals", "dataType": "Values", "inputId": TwoStepActualsInputID},
			map[string]any{"stepName": "Load Rates", "dataType": "Values", "inputId": TwoStepRatesInputID}}},
		{NoStepTemplateID, "Recalculate", "600000000000000001", "Finance Plan", []any{}},
		{SameStepNameTemplateID, "Twin Loads", "600000000000000002", "Sales Model", []any{
			map[string]any{"stepName": "Load", "dataType": "Values", "inputId": SameStepNameFirstInputID},
			map[string]any{"stepName": "Load", "dataType": "Values", "inputId": SameStepNameSecondInputID}}},
	}
	for _, c := range cases {
		m := e.get("/templates/" + c.id).obj(t)
		if m["id"] != c.id || m["name"] != c.name || m["modelId"] != c.model || m["modelName"] != c.modelName {
			t.Errorf("template %s = %v", c.id, m)
		}
		if !reflect.DeepEqual(m["steps"], c.steps) {
			t.Errorf("template %s steps = %#v, want %#v", c.id, m["steps"], c.steps)
		}
	}
	// The first four are unchanged, in the same order.
	ts := DefaultTemplates()
	for i, id := range []string{GLActualsTemplateID, HeadcountTemplateID, SalesVolumesTemplateID, SalesGLActualsTemplateID} {
		if ts[i].ID != id {
			t.Errorf("template %d = %s, want %s", i, ts[i].ID, id)
		}
	}
	// Step columns are copies too.
	ts[4].Steps[0].RequiredColumns[0] = "changed"
	if DefaultTemplates()[4].Steps[0].RequiredColumns[0] != "Account" {
		t.Error("DefaultTemplates shares step columns")
	}
}

// TestTemplateIDsPinned pins the exported ids: examples, docs and other
// packages' tests name them, so they must not change. Every other test
// uses the constants.
func TestTemplateIDsPinned(t *testing.T) {
	for got, want := range map[string]string{
		GLActualsTemplateID: "640101874288689152", GLActualsInputID: "640101874288689153",
		HeadcountTemplateID: "640101874288689154", HeadcountInputID: "640101874288689155",
		SalesVolumesTemplateID: "640101874288689156", SalesVolumesInputID: "640101874288689157",
		SalesGLActualsTemplateID: "640101874288689158", SalesGLActualsInputID: "640101874288689159",
		TwoStepTemplateID: "640101874288689160", TwoStepActualsInputID: "640101874288689161", TwoStepRatesInputID: "640101874288689162",
		NoStepTemplateID:       "640101874288689163",
		SameStepNameTemplateID: "640101874288689164", SameStepNameFirstInputID: "640101874288689165", SameStepNameSecondInputID: "640101874288689166",
	} {
		if got != want {
			t.Errorf("id %s, want %s", got, want)
		}
	}
}

func TestRequiredForAndFirstInput(t *testing.T) {
	ts := DefaultTemplates()
	two, none, twin := ts[4], ts[5], ts[6]
	cases := []struct {
		t     Template
		input string
		want  []string
	}{
		{two, TwoStepActualsInputID, []string{"Account", "Amount"}},
		{two, TwoStepRatesInputID, []string{"Currency", "Rate"}},
		{twin, SameStepNameSecondInputID, []string{"Product", "Units"}}, // the template's, the step has none
		{none, "", nil},
		{ts[0], GLActualsInputID, []string{"Account", "Amount"}},
	}
	for _, c := range cases {
		if got := c.t.requiredFor(c.input); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s requiredFor(%q) = %q, want %q", c.t.Name, c.input, got, c.want)
		}
	}
	if two.firstInput() != TwoStepActualsInputID || none.firstInput() != "" {
		t.Errorf("firstInput = %q, %q", two.firstInput(), none.firstInput())
	}
}

func TestTemplatesSnapshot(t *testing.T) {
	clk := newClock()
	e := newEnv(t, Options{Now: clk.Now})
	e.mustStart(GLActualsTemplateID, glCSV)
	ts := e.srv.Templates()
	if len(ts) != 7 || ts[0].LastRunTime == nil || *ts[0].LastRunTime != clk.Now().UnixMilli() || ts[1].LastRunTime == nil {
		t.Fatalf("templates = %+v", ts)
	}
	*ts[0].LastRunTime = 1
	ts[4].Steps[0].RequiredColumns[0] = "changed"
	again := e.srv.Templates()
	if *again[0].LastRunTime == 1 || again[4].Steps[0].RequiredColumns[0] != "Account" {
		t.Error("Templates shares state with the server")
	}
}
