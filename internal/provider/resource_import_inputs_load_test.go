package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// At apply, bytes other than the planned ones are refused before any job
// is created.
func TestPrepareInputsRefusesChangedData(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
	if err != nil {
		t.Fatal(err)
	}
	r := &importResource{jobRunner: jobRunner{client: c}}
	ins, _ := inputsValue(ctx, []keyedInput{{key: "Load Rates", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rowsValue(t, cells("Currency"), cells("EUR"))}}})
	plan := importModel{TemplateID: types.StringValue(emulator.TwoStepTemplateID), Inputs: ins, ContentSHA256: types.StringValue(sha256Hex([]byte("planned")))}
	var diags diag.Diagnostics
	loads, _, ok := r.prepareInputs(ctx, &plan, writeOnlyData{}, &diags)
	if ok || len(loads) != 1 {
		t.Fatalf("ok %v with %d loads", ok, len(loads))
	}
	assertAttrError(t, diags, path.Root("inputs"), "changed between plan and apply", "no job was created")
	if jobs, _ := e.Stats(); jobs != 0 {
		t.Errorf("%d jobs", jobs)
	}

	// With the planned hash right, the plan gets it and the loads are in
	// the template's step order.
	csv := []byte("Currency\nEUR\n")
	want := entryHash([4]string{emulator.TwoStepRatesInputID, "CSV", "UTF-8", sha256Hex(csv)})
	plan.ContentSHA256 = types.StringValue(want)
	diags = nil
	loads, _, ok = r.prepareInputs(ctx, &plan, writeOnlyData{}, &diags)
	if !ok || len(loads) != 1 || loads[0].step.InputID != emulator.TwoStepRatesInputID || plan.ContentSHA256.ValueString() != want {
		t.Errorf("ok %v, loads %+v, sum %s: %v", ok, loads, plan.ContentSHA256, diags)
	}
}

// fillInputs completes an in-place update: defaults unknown at plan, and
// content_sha256 when the plan could not compute it.
func TestFillInputs(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	c, err := etl.New(etl.Config{BaseURL: e.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret})
	if err != nil {
		t.Fatal(err)
	}
	p, raw := writeTestFile(t, t.TempDir(), "actuals.csv", "CSV", "UTF-8", actualsRows)
	obj, _ := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: types.StringValue(p), Content: types.StringNull(), Format: types.StringUnknown(),
		Encoding: types.StringValue("UTF-8"), Name: types.StringUnknown(), PartName: types.StringValue("file")})
	ins, _ := inputsValue(ctx, []keyedInput{{key: emulator.TwoStepActualsInputID, inputModel: inputModel{File: obj, Rows: types.ListNull(types.ListType{ElemType: types.StringType})}}})
	plan := importModel{TemplateID: types.StringValue(emulator.TwoStepTemplateID), Inputs: ins, ContentSHA256: types.StringUnknown()}
	if d := (&importResource{jobRunner: jobRunner{client: c}}).fillInputs(ctx, &plan, writeOnlyData{}); d.HasError() {
		t.Fatal(d)
	}
	if want := entryHash([4]string{emulator.TwoStepActualsInputID, "CSV", "UTF-8", sha256Hex(raw)}); plan.ContentSHA256.ValueString() != want {
		t.Errorf("content_sha256 %s, want %s", plan.ContentSHA256, want)
	}
	back, _, _ := inputsFrom(ctx, plan.Inputs)
	f, _ := fileFrom(ctx, back[0].File)
	if f.Format.ValueString() != "CSV" || f.Name.ValueString() != "actuals.csv" {
		t.Errorf("defaults not filled: %+v", f)
	}
}
