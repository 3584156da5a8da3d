package provider

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// configuredHarness is a provider server configured against a fresh emulator.
func configuredHarness(t *testing.T) (*protoHarness, *testEmulator) {
	t.Helper()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	h := newProtoHarness(t)
	if d := h.configure(map[string]any{"base_url": e.URL, "token_id": emulator.DefaultTokenID, "token_secret": emulator.DefaultTokenSecret, "max_retries": 0}); hasError(d) {
		t.Fatal(describe(d))
	}
	return h, e
}

// plannedString returns a string attribute of a planned state.
func plannedString(t *testing.T, p *tfprotov6.PlanResourceChangeResponse, name string) tftypes.Value {
	t.Helper()
	v, err := p.PlannedState.Unmarshal(importType())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

func TestPlanInputs(t *testing.T) {
	h, e := configuredHarness(t)
	dir := t.TempDir()
	actuals, raw := writeTestFile(t, dir, "actuals.tsv", "TDF", "UTF-16", actualsRows)
	p, diags := h.planImport(map[string]any{
		"template_id": emulator.TwoStepTemplateID,
		"inputs": inputsTF(t, map[string]map[string]any{
			"Load Actuals": {"file": map[string]any{"path": actuals, "encoding": "UTF-16"}},
		}),
	})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	want := entryHash([4]string{emulator.TwoStepActualsInputID, "TDF", "UTF-16", sha256Hex(raw)})
	if got := plannedString(t, p, "content_sha256"); !got.Equal(tftypes.NewValue(tftypes.String, want)) {
		t.Errorf("planned content_sha256 %v, want %s", got, want)
	}
	if got := plannedString(t, p, "submit"); !got.Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Errorf("planned submit %v, want true (the default with inputs)", got)
	}
	ws := diagsAt(diags, tfprotov6.DiagnosticSeverityWarning, "Template steps without input")
	if len(ws) != 1 || attrPath(ws[0].Attribute) != "inputs" || !strings.Contains(ws[0].Detail, `"Load Rates" (input id `+emulator.TwoStepRatesInputID+`)`) {
		t.Errorf("want a warning on inputs naming the step not loaded, got:\n%s", describe(diags))
	}
	if jobs, _ := e.Stats(); jobs != 0 {
		t.Errorf("planning created %d jobs", jobs)
	}

	// An input's file problems are on the input's file attributes.
	bad := writeFile(t, dir, "bad.csv", []byte("Account,Amount\n4000,1,2\n"))
	_, diags = h.planImport(map[string]any{
		"template_id": emulator.TwoStepTemplateID,
		"inputs": inputsTF(t, map[string]map[string]any{
			"Load Actuals": {"file": map[string]any{"path": bad}},
			"Load Rates":   {"file": map[string]any{"path": filepath.Join(dir, "missing.csv")}},
		}),
	})
	for at, s := range map[string]string{
		`inputs["Load Actuals"].file.path`: `In inputs["Load Actuals"]: The file`,
		`inputs["Load Rates"].file.path`:   `In inputs["Load Rates"]: file.path: The file`,
	} {
		found := false
		for _, d := range diags {
			if d.Severity == tfprotov6.DiagnosticSeverityError && attrPath(d.Attribute) == at && strings.Contains(d.Detail, s) {
				found = true
			}
		}
		if !found {
			t.Errorf("no error on %s containing %q:\n%s", at, s, describe(diags))
		}
	}
}

func TestPlanInputsSubmit(t *testing.T) {
	h, _ := configuredHarness(t)
	ins := inputsTF(t, map[string]map[string]any{
		"Load Actuals": {"rows": actualsRows},
		"Load Rates":   {"rows": ratesRows},
	})
	p, diags := h.planImport(map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": ins, "submit": false})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	if ws := diagsAt(diags, tfprotov6.DiagnosticSeverityWarning, "Job will not be submitted"); len(ws) != 1 || attrPath(ws[0].Attribute) != "submit" {
		t.Errorf("want one warning on submit, got:\n%s", describe(diags))
	}
	if got := plannedString(t, p, "submit"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("planned submit %v, want false as configured", got)
	}
	_, diags = h.planImport(map[string]any{"template_id": emulator.TwoStepTemplateID, "inputs": ins, "submit": false, "wait_for_completion": true})
	if es := diagsAt(diags, tfprotov6.DiagnosticSeverityError, "Waiting on a job that is not submitted"); len(es) != 1 || attrPath(es[0].Attribute) != "wait_for_completion" {
		t.Errorf("want one error on wait_for_completion, got:\n%s", describe(diags))
	}
	// Without inputs, submit still defaults to false.
	p, diags = h.planImport(map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": actualsRows})
	if hasError(diags) {
		t.Fatal(describe(diags))
	}
	if got := plannedString(t, p, "submit"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("planned submit %v for rows, want false", got)
	}
}

func TestPlanSingleFileWarning(t *testing.T) {
	h, _ := configuredHarness(t)
	for _, c := range []struct {
		template string
		warns    bool
	}{{emulator.TwoStepTemplateID, true}, {emulator.GLActualsTemplateID, false}, {emulator.NoStepTemplateID, false}, {unknownTemplateID, false}} {
		_, diags := h.planImport(map[string]any{"template_id": c.template, "rows": actualsRows})
		ws := diagsAt(diags, tfprotov6.DiagnosticSeverityWarning, "Template has several input steps")
		if hasError(diags) || (len(ws) == 1) != c.warns {
			t.Errorf("template %s: want warning %v, got:\n%s", c.template, c.warns, describe(diags))
			continue
		}
		if c.warns && (attrPath(ws[0].Attribute) != "rows" || !strings.Contains(ws[0].Detail, `"Load Actuals" = { file`)) {
			t.Errorf("warning on %s: %s", attrPath(ws[0].Attribute), ws[0].Detail)
		}
	}
}

// Without a client (the provider's settings unknown during this plan),
// a new job's hash is unknown until apply, but an existing job's plan
// fails rather than plan a replacement it cannot justify.
func TestPlanInputsWithoutClient(t *testing.T) {
	ctx := context.Background()
	ins, d := inputsValue(ctx, []keyedInput{{key: "Load Rates", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rowsValue(t, cells("Currency"), cells("EUR"))}}})
	if d.HasError() {
		t.Fatal(d)
	}
	m := importModel{TemplateID: types.StringValue(emulator.TwoStepTemplateID), Inputs: ins}
	r := &importResource{}
	sum, _, diags := r.planInputsHash(ctx, m, false, writeOnlyData{}, nil)
	if !sum.IsUnknown() || diags.HasError() {
		t.Errorf("new job: %v, %v; want unknown, no error", sum, diags)
	}
	sum, _, diags = r.planInputsHash(ctx, m, true, writeOnlyData{}, nil)
	if !sum.IsUnknown() {
		t.Errorf("existing job: %v, want unknown", sum)
	}
	assertAttrError(t, diags, path.Root("inputs"), "not configured", "second job")
}
