package provider

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	aschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// An input's file is the top-level file block, less the per-attribute
// replacement (content_sha256 decides for inputs), with its defaults.
func TestInputsSchema(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	inputs, ok := resp.Schema.Attributes["inputs"].(schema.MapNestedAttribute)
	if !ok {
		t.Fatal("inputs is not a map of objects")
	}
	file := inputs.NestedObject.Attributes["file"].(schema.SingleNestedAttribute)
	top := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	if got, want := slices.Sorted(maps.Keys(file.Attributes)), slices.Sorted(maps.Keys(top.Attributes)); !slices.Equal(got, want) {
		t.Errorf("an input's file has %v, the top-level file %v", got, want)
	}
	for name, a := range file.Attributes {
		s := a.(schema.StringAttribute)
		if s.MarkdownDescription != top.Attributes[name].(schema.StringAttribute).MarkdownDescription {
			t.Errorf("inputs file.%s is described apart from file.%s", name, name)
		}
	}
	for _, name := range []string{"format", "name"} {
		mods := file.Attributes[name].(schema.StringAttribute).PlanModifiers
		if len(mods) != 1 {
			t.Errorf("inputs file.%s: plan modifiers %v, want its default only", name, mods)
		} else if _, ok := mods[0].(fileDefault); !ok {
			t.Errorf("inputs file.%s: %T is not its default", name, mods[0])
		}
	}
	if len(file.Validators) != 1 {
		t.Errorf("inputs file: %d validators, want exactly one of file and rows", len(file.Validators))
	}
	submit := resp.Schema.Attributes["submit"].(schema.BoolAttribute)
	// submit's default only: turning it on submits the job in place, and
	// replaces only a final job, decided in ModifyPlan (planSubmit).
	if len(submit.PlanModifiers) != 1 || submit.Default != nil {
		t.Fatalf("submit: modifiers %v, default %v", submit.PlanModifiers, submit.Default)
	}
	if _, ok := submit.PlanModifiers[0].(submitDefault); !ok {
		t.Error("submit's only plan modifier must be its default")
	}
	if d := resp.Schema.Attributes["content_sha256"].GetMarkdownDescription(); !strings.Contains(d, "With `inputs`, one hash over every input") {
		t.Errorf("content_sha256 does not document the hash of inputs: %s", d)
	}
}

func TestSubmitDefault(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	typ := importType()
	for _, c := range []struct {
		inputs tftypes.Value
		submit any
		want   bool
	}{
		{inputsTF(t, map[string]map[string]any{}), nil, true},
		{tftypes.NewValue(typ.AttributeTypes["inputs"], nil), nil, false},
		{tftypes.NewValue(typ.AttributeTypes["inputs"], tftypes.UnknownValue), nil, true},
		{inputsTF(t, map[string]map[string]any{}), false, false},
	} {
		cfg := tfsdk.Config{Schema: resp.Schema, Raw: tfValue(t, typ, map[string]any{"inputs": c.inputs, "submit": c.submit})}
		req := planmodifier.BoolRequest{Config: cfg, ConfigValue: types.BoolNull(), PlanValue: types.BoolUnknown()}
		if c.submit != nil {
			req.ConfigValue = types.BoolValue(c.submit.(bool))
			req.PlanValue = req.ConfigValue
		}
		out := planmodifier.BoolResponse{PlanValue: req.PlanValue}
		submitDefault{}.PlanModifyBool(ctx, req, &out)
		if out.Diagnostics.HasError() || !out.PlanValue.Equal(types.BoolValue(c.want)) {
			t.Errorf("inputs %v, submit %v: planned %v (%v), want %v", c.inputs, c.submit, out.PlanValue, out.Diagnostics, c.want)
		}
	}
}

func TestCheckInputsConfig(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	cfg := tfsdk.Config{Schema: resp.Schema, Raw: tfValue(t, importType(), map[string]any{"inputs": inputsTF(t, map[string]map[string]any{
		"ok":   {"file": map[string]any{"path": "gl.csv"}},
		"bad":  {"file": map[string]any{"path": "gl.data"}},
		"rows": {"rows": [][]string{{"A"}}},
	})})}
	d := checkInputsConfig(ctx, cfg)
	assertAttrError(t, d, inputPath("bad").AtName("file").AtName("format"), `In inputs["bad"]: file.format is required`, "gl.data")
}

// TestInputFactsSchema: each of the resource's inputs has columns,
// row_count and size_bytes, computed; the action's inputs keep only file
// and rows.
func TestInputFactsSchema(t *testing.T) {
	res, _ := inputsAttribute().(schema.MapNestedAttribute)
	for _, name := range []string{"columns", "row_count", "size_bytes"} {
		if a, ok := res.NestedObject.Attributes[name]; !ok || !a.IsComputed() || a.IsOptional() {
			t.Errorf("resource inputs.%s: %v, want computed only", name, a)
		}
	}
	act, _ := actionInputsAttribute().(aschema.MapNestedAttribute)
	var names []string
	for name := range act.NestedObject.Attributes {
		names = append(names, name)
	}
	if slices.Sort(names); !slices.Equal(names, []string{"file", "rows"}) {
		t.Errorf("action inputs attributes %v, want file and rows", names)
	}
}

// TestInputFactsNow: at apply, a rows input is counted as its CSV file,
// and unknown rows stay unknown.
func TestInputFactsNow(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1.08"))
	in := keyedInput{key: "Load Rates", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rows}}
	got := inputFactsNow(ctx, in, writeOnlyData{})
	if got.RowCount.ValueInt64() != 1 || got.SizeBytes.ValueInt64() != int64(len("Currency,Rate\nEUR,1.08\n")) {
		t.Errorf("facts %+v, want 1 row and the CSV file's size", got)
	}
	in.Rows = types.ListUnknown(rows.ElementType(ctx))
	if got := inputFactsNow(ctx, in, writeOnlyData{}); !got.RowCount.IsUnknown() {
		t.Errorf("unknown rows: %+v, want unknown", got)
	}
}

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

// TestInputStepsPrivateState: what saveInputSteps keeps, inputStepsFrom
// reads back; nothing is kept for no entries.
func TestInputStepsPrivateState(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	var d diag.Diagnostics
	saveInputSteps(ctx, nil, p, &d)
	if inputStepsFrom(ctx, p) != nil || len(p) != 0 {
		t.Fatalf("no entries: kept %v", p)
	}
	e := []inputEntry{{Input: importjob.Input{InputID: "1", Format: "CSV", Encoding: "UTF-8", SHA256: "s", StepName: "Load", Position: 3}}}
	saveInputSteps(ctx, e, p, &d)
	if got := inputStepsFrom(ctx, p); d.HasError() || len(got) != 1 || got[0] != e[0] {
		t.Fatalf("read back %+v, %v", got, d)
	}
}
