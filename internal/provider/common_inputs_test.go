package provider

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

func TestInInput(t *testing.T) {
	var d diag.Diagnostics
	d.AddAttributeError(filePath("path"), "File not found", "file.path: gone.")
	d.AddAttributeWarning(path.Root("rows"), "W", "w.")
	d.AddError("No path", "none.")
	got := inInput("Load Actuals", d)
	want := []struct{ at, detail string }{
		{`inputs["Load Actuals"].file.path`, `In inputs["Load Actuals"]: file.path: gone.`},
		{`inputs["Load Actuals"].rows`, `In inputs["Load Actuals"]: w.`},
		{`inputs["Load Actuals"]`, `In inputs["Load Actuals"]: none.`},
	}
	if len(got) != len(want) || got.ErrorsCount() != 2 || got.WarningsCount() != 1 {
		t.Fatalf("got %v", got)
	}
	for i, w := range want {
		p := got[i].(diag.DiagnosticWithPath).Path()
		if p.String() != w.at || got[i].Detail() != w.detail || got[i].Summary() != d[i].Summary() {
			t.Errorf("%d: %s %q %q, want %s %q", i, p, got[i].Summary(), got[i].Detail(), w.at, w.detail)
		}
	}
}

func TestInputsFromAndValue(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1.08"))
	ins := []keyedInput{
		{key: "b", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rows}},
		{key: "a", inputModel: inputModel{File: goldenFile(t, "A\n1\n", "CSV", "UTF-8"), Rows: types.ListNull(rows.ElementType(ctx))}},
	}
	m, d := inputsValue(ctx, ins)
	if d.HasError() {
		t.Fatal(d)
	}
	back, isKnown, d := inputsFrom(ctx, m)
	if d.HasError() || !isKnown || len(back) != 2 || back[0].key != "a" || back[1].key != "b" {
		t.Fatalf("inputsFrom: %v %v %v", back, isKnown, d)
	}
	if !back[1].Rows.Equal(rows) || !back[0].File.Equal(ins[1].File) {
		t.Error("inputs changed on the way back")
	}
	if _, isKnown, _ := inputsFrom(ctx, types.MapUnknown(types.ObjectType{AttrTypes: inputAttrTypes})); isKnown {
		t.Error("an unknown map is known")
	}
	withUnknown, _ := types.MapValue(types.ObjectType{AttrTypes: inputAttrTypes}, map[string]attr.Value{"a": types.ObjectUnknown(inputAttrTypes)})
	if _, isKnown, _ := inputsFrom(ctx, withUnknown); isKnown {
		t.Error("a map with an unknown entry is known")
	}
}

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
	up, d := prepareInput(ctx, rows, writeOnlyData{}, types.StringNull())
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
	up, d = prepareInput(ctx, file, writeOnlyData{}, types.StringNull())
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
	if up.sum != sha256Hex(raw) || up.file.Input != (etl.FileInput{PartName: "file", FileFormat: flatfile.FormatPSV, FileEncoding: flatfile.EncodingLatin1, FileName: "actuals.psv"}) {
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
	if up, d := prepareInput(ctx, gone, writeOnlyData{}, types.StringNull()); up != nil || d.ErrorsCount() != 1 {
		t.Errorf("a missing file: %v, %v", up, d)
	} else if at := inInput("Load Actuals", d); !at.Errors()[0].(interface{ Path() path.Path }).Path().Equal(inputPath("Load Actuals").AtName("file").AtName("path")) {
		t.Errorf("error on %v", at)
	}
}

func TestAddCreateJobError(t *testing.T) {
	var d diag.Diagnostics
	addCreateJobError(&d, "t1", &etl.JobMaybeCreatedError{TemplateID: "t1", Err: errors.New("connection reset")}, "Apply again.")
	if d.ErrorsCount() != 1 || !strings.Contains(d[0].Detail(), "holds no data and was never submitted") || !strings.Contains(d[0].Detail(), "Apply again") ||
		strings.Contains(d[0].Detail(), "terraform import") {
		t.Errorf("lost answer: %v", d)
	}
	d = nil
	addCreateJobError(&d, "t1", errors.New("refused"), "Apply again.")
	if d.ErrorsCount() != 1 || !strings.Contains(d[0].Detail(), "No job was created") {
		t.Errorf("plain error: %v", d)
	}
}

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
