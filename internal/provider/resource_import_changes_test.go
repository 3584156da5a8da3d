package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Each warning of a plan of a live object names the job, and says what
// is done and what to run.
func TestWarnChange(t *testing.T) {
	const id = "640101874288689170"
	state := importModel{ID: types.StringValue(id), Status: types.StringValue("EXPIRED"), TemplateID: types.StringValue("640101874288689152")}
	for _, tc := range []struct {
		w               importjob.Warning
		at              path.Path
		summary, detail string
	}{
		{importjob.WarnSubmitGone, path.Root("submit"), "Import job " + id + " cannot be submitted", "terraform apply -replace="},
		{importjob.WarnSubmitReplaces, path.Root("submit"), "Turning submit on replaces import job " + id, "EXPIRED: it was never submitted"},
		{importjob.WarnRehashed, path.Root("inputs"), "Template input ids changed; the job is kept", "job " + id + " was loaded"},
	} {
		var diags diag.Diagnostics
		warnChange(tc.w, state, state, &diags)
		if len(diags) != 1 || diags.WarningsCount() != 1 {
			t.Fatalf("warning %d: %v", tc.w, diags)
		}
		w, ok := diags[0].(diag.DiagnosticWithPath)
		if !ok || !w.Path().Equal(tc.at) || w.Summary() != tc.summary || !strings.Contains(w.Detail(), tc.detail) {
			t.Errorf("warning %d: %q at %v: %q", tc.w, diags[0].Summary(), tc.at, diags[0].Detail())
		}
	}
}

// What was unknown at plan must be the job's at apply: a difference fails
// on the attribute, before anything is sent.
func TestCheckUnchangedAtApply(t *testing.T) {
	ctx := context.Background()
	file := func(format, enc string) types.Object {
		obj, d := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{
			Path: types.StringValue("/data/gl.csv"), Content: types.StringNull(), Format: types.StringValue(format),
			Encoding: types.StringValue(enc), Name: types.StringValue("gl.csv"), PartName: types.StringValue("file"),
		})
		if d.HasError() {
			t.Fatal(d)
		}
		return obj
	}
	state := importModel{ID: types.StringValue("640101874288689170"), TemplateID: types.StringValue(emulator.GLActualsTemplateID),
		ContentSHA256: types.StringValue("aa"), File: file("CSV", "UTF-8")}
	with := func(f func(*importModel)) importModel { m := state; f(&m); return m }
	cases := []struct {
		name string
		plan importModel
		at   path.Path
	}{
		{"other bytes", with(func(m *importModel) { m.ContentSHA256 = types.StringValue("bb") }), path.Root("content_sha256")},
		{"other template", with(func(m *importModel) { m.TemplateID = types.StringValue(emulator.HeadcountTemplateID) }), path.Root("template_id")},
		{"other format", with(func(m *importModel) { m.File = file("PSV", "UTF-8") }), filePath("format")},
		{"other encoding", with(func(m *importModel) { m.File = file("CSV", "UTF-16") }), filePath("encoding")},
	}
	for _, tc := range cases {
		var diags diag.Diagnostics
		checkUnchangedAtApply(ctx, state, tc.plan, false, &diags)
		assertAttrError(t, diags, tc.at, "640101874288689170", "Nothing was sent", "run terraform apply again")
	}
	var diags diag.Diagnostics
	checkUnchangedAtApply(ctx, state, with(func(m *importModel) { m.File = file("CSV", "UTF-8") }), false, &diags)
	if diags.HasError() {
		t.Errorf("the same job: %v", diags)
	}
	// A hash the plan recorded anew for the same data (new input ids) is
	// not a change; another template still is.
	checkUnchangedAtApply(ctx, state, cases[0].plan, true, &diags)
	if diags.HasError() {
		t.Errorf("rehashed: %v", diags)
	}
	checkUnchangedAtApply(ctx, state, cases[1].plan, true, &diags)
	assertAttrError(t, diags, path.Root("template_id"), "Nothing was sent")
}

func TestSubmitTurnedOn(t *testing.T) {
	on, off, null := types.BoolValue(true), types.BoolValue(false), types.BoolNull()
	for _, tc := range []struct {
		state, plan types.Bool
		want        bool
	}{
		{off, on, true}, {on, on, false}, {on, off, false}, {null, on, false}, {off, types.BoolUnknown(), false},
	} {
		if got := submitTurnedOn(importModel{Submit: tc.state}, importModel{Submit: tc.plan}); got != tc.want {
			t.Errorf("%s -> %s: %v, want %v", tc.state, tc.plan, got, tc.want)
		}
	}
}

// A switch between file, rows and inputs is a new job: the spec's kind
// tells them apart.
func TestSpecKind(t *testing.T) {
	nullMap := types.MapNull(types.ObjectType{AttrTypes: inputAttrTypes})
	rows := importModel{File: types.ObjectNull(fileAttrTypes), Inputs: nullMap}
	file := importModel{File: types.ObjectUnknown(fileAttrTypes), Inputs: nullMap}
	inputs := importModel{File: types.ObjectNull(fileAttrTypes), Inputs: types.MapValueMust(types.ObjectType{AttrTypes: inputAttrTypes}, nil)}
	for m, want := range map[*importModel]string{&rows: "rows", &file: "file", &inputs: "inputs"} {
		if got := m.spec().kind(); got != want {
			t.Errorf("kind = %s, want %s", got, want)
		}
	}
}
