package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// TestResolveInputs: the template read, each problem of a key
// (importjob.Template.ResolveKeys) is an error on that key, titled by its
// kind, and lies outside the configuration; a template that cannot be
// read is an error on template_id.
func TestResolveInputs(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	r := testRunner(t, e)
	keyed := func(keys ...string) []keyedInput {
		out := make([]keyedInput, len(keys))
		for i, k := range keys {
			out[i].key = k
		}
		return out
	}
	tpl, steps, d := r.resolveInputs(t.Context(), emulator.TwoStepTemplateID, keyed("Load Actuals", emulator.TwoStepRatesInputID))
	if d.HasError() || tpl.ID != emulator.TwoStepTemplateID || len(tpl.Steps) != 2 || steps["Load Actuals"].InputID != emulator.TwoStepActualsInputID {
		t.Fatalf("%+v %+v %v", tpl, steps, d)
	}
	for _, c := range []struct {
		template, bad, summary string
		keys                   []string
	}{
		{emulator.TwoStepTemplateID, "Load Actual", "Unknown input step", []string{"Load Actual"}},
		{emulator.SameStepNameTemplateID, "Load", "Step name not unique", []string{"Load"}},
		{emulator.TwoStepTemplateID, "Load Rates", "Input given twice", []string{emulator.TwoStepRatesInputID, "Load Rates"}},
	} {
		_, _, d := r.resolveInputs(t.Context(), c.template, keyed(c.keys...))
		if d.ErrorsCount() != 1 || d.Errors()[0].Summary() != c.summary || len(outsideErrors(d)) != 1 {
			t.Fatalf("%v: want one outside error %q, got %v", c.keys, c.summary, d)
		}
		if e := d.Errors()[0].(diag.DiagnosticWithPath); !e.Path().Equal(inputPath(c.bad)) {
			t.Errorf("%v: error on %s, want %s", c.keys, e.Path(), inputPath(c.bad))
		}
	}
	_, _, d = r.resolveInputs(t.Context(), unknownTemplateID, keyed("x"))
	assertAttrError(t, d, path.Root("template_id"), "resolved against the template's steps", "404")
	if s := d.Errors()[0].Summary(); s != "Reading template "+unknownTemplateID+" failed" {
		t.Errorf("summary %q", s)
	}
}
