package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// submit turned on: in place for a job that can take it or was submitted
// (whatever its status now: COMPLETED and ERROR send nothing); a
// replacement, with a warning that says why, for a job never submitted
// that can no longer be; a warning only for a job gone. Adopting (prior null) or turning it off plans nothing.
func TestPlanSubmit(t *testing.T) {
	const id = "640101874288689170"
	model := func(submit types.Bool, status string) importModel {
		return importModel{ID: types.StringValue(id), Submit: submit, Status: types.StringValue(status)}
	}
	on, off, null := types.BoolValue(true), types.BoolValue(false), types.BoolNull()
	cases := []struct {
		name          string
		state, plan   importModel
		replace       bool
		warning, says string
	}{
		{"running", model(off, "RUNNING"), model(on, ""), false, "", ""},
		{"editing", model(off, "EDITING"), model(on, ""), false, "", ""},
		{"completed", model(off, "COMPLETED"), model(on, ""), false, "", ""},
		{"error", model(off, "ERROR"), model(on, ""), false, "", ""},
		{"submitted", model(off, "SUBMITTED"), model(on, ""), false, "", ""},
		{"cancelled", model(off, "CANCELLED"), model(on, ""), true, "Turning submit on replaces import job " + id, "never submitted"},
		{"expired", model(off, "EXPIRED"), model(on, ""), true, "Turning submit on replaces import job " + id, "without importing"},
		{"gone", model(off, statusNotFound), model(on, ""), false, "Import job " + id + " cannot be submitted", "terraform apply -replace="},
		{"turned off", model(on, "COMPLETED"), model(off, ""), false, "", ""},
		{"adopting", model(null, "COMPLETED"), model(on, ""), false, "", ""},
		{"unknown", model(off, "COMPLETED"), model(types.BoolUnknown(), ""), false, "", ""},
	}
	for _, tc := range cases {
		resp := &resource.ModifyPlanResponse{}
		planSubmit(tc.state, tc.plan, resp)
		if got := len(resp.RequiresReplace) == 1 && resp.RequiresReplace[0].Equal(path.Root("submit")); got != tc.replace {
			t.Errorf("%s: replace %v, want %v", tc.name, resp.RequiresReplace, tc.replace)
		}
		if tc.warning == "" {
			if len(resp.Diagnostics) != 0 {
				t.Errorf("%s: unexpected %v", tc.name, resp.Diagnostics)
			}
			continue
		}
		if resp.Diagnostics.WarningsCount() != 1 || resp.Diagnostics.HasError() {
			t.Fatalf("%s: want one warning, got %v", tc.name, resp.Diagnostics)
		}
		w := resp.Diagnostics.Warnings()[0]
		if w.Summary() != tc.warning || !strings.Contains(w.Detail(), tc.says) || !strings.Contains(w.Detail(), id) {
			t.Errorf("%s: warning %q: %q", tc.name, w.Summary(), w.Detail())
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
