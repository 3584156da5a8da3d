package provider

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// readUpload reads what one attempt of the upload would send.
func readUpload(t *testing.T, up *preparedUpload) []byte {
	t.Helper()
	rc, err := up.file.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPrepareInput(t *testing.T) {
	ctx := context.Background()
	s, null := types.StringValue, types.StringNull()
	listNull := types.ListNull(types.ListType{ElemType: types.StringType})

	rows := &keyedInput{key: "Load Rates", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1,08"))}}
	up, d := prepareInput(ctx, rows, writeOnlyData{}, false)
	if d.HasError() {
		t.Fatal(d)
	}
	want := []byte(delimited([][]string{{"Currency", "Rate"}, {"EUR", "1,08"}}, "CSV"))
	if got := readUpload(t, up); string(got) != string(want) || up.sum != sha256Hex(want) || up.file.Size != int64(len(want)) {
		t.Errorf("rows sent as %q (sum %s, size %d), want %q", got, up.sum, up.file.Size, want)
	}
	if up.file.Input != rowsInput {
		t.Errorf("rows input %+v, want %+v", up.file.Input, rowsInput)
	}

	p, raw := writeTestFile(t, t.TempDir(), "actuals.psv", "PSV", "Windows Latin-1", testRows)
	obj, _ := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: s(p), Content: null, Format: types.StringUnknown(), Encoding: s("Windows Latin-1"), Name: types.StringUnknown(), PartName: null})
	file := &keyedInput{key: "Load Actuals", inputModel: inputModel{File: obj, Rows: listNull}}
	up, d = prepareInput(ctx, file, writeOnlyData{}, false)
	if d.HasError() {
		t.Fatal(d)
	}
	defer up.Close()
	// Read twice: each attempt of a retried PUT sends the file from its start.
	for range 2 {
		if got := readUpload(t, up); string(got) != string(raw) {
			t.Errorf("file sent as %q, want %q", got, raw)
		}
	}
	if up.sum != sha256Hex(raw) || up.file.Input != (etl.FileInput{PartName: "file", FileFormat: etl.FormatPSV, FileEncoding: etl.EncodingLatin1, FileName: "actuals.psv"}) {
		t.Errorf("file upload %+v, sum %s", up.file.Input, up.sum)
	}
	f, _ := fileFrom(ctx, file.File)
	if f.Format.ValueString() != "PSV" || f.Name.ValueString() != "actuals.psv" || f.PartName.ValueString() != "file" {
		t.Errorf("defaults not filled into the input: %+v", f)
	}

	gone := &keyedInput{key: "Load Actuals", inputModel: inputModel{File: goldenPath(t, "A\n1\n"), Rows: listNull}}
	f, _ = fileFrom(ctx, gone.File)
	obj, _ = types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: s(f.Path.ValueString() + ".missing"), Content: null, Format: s("CSV"), Encoding: s("UTF-8"), Name: null, PartName: null})
	gone.File = obj
	if up, d := prepareInput(ctx, gone, writeOnlyData{}, false); up != nil || d.ErrorsCount() != 1 {
		t.Errorf("a missing file: %v, %v", up, d)
	} else if at := inInput("Load Actuals", d); !at.Errors()[0].(interface{ Path() path.Path }).Path().Equal(inputPath("Load Actuals").AtName("file").AtName("path")) {
		t.Errorf("error on %v", at)
	}
}

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

func TestAddCreateJobError(t *testing.T) {
	var d diag.Diagnostics
	addCreateJobError(&d, "t1", &etl.JobMaybeCreatedError{TemplateID: "t1", Err: errors.New("connection reset")})
	if d.ErrorsCount() != 1 || !strings.Contains(d[0].Detail(), "holds no data and was never submitted") || !strings.Contains(d[0].Detail(), "Apply again") ||
		strings.Contains(d[0].Detail(), "terraform import") {
		t.Errorf("lost answer: %v", d)
	}
	d = nil
	addCreateJobError(&d, "t1", errors.New("refused"))
	if d.ErrorsCount() != 1 || !strings.Contains(d[0].Detail(), "No job was created") {
		t.Errorf("plain error: %v", d)
	}
}
