package provider

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

func jobState(id, name, modelID, modelName string) importModel {
	return importModel{ID: types.StringValue(id), Name: types.StringValue(name), ModelID: types.StringValue(modelID), ModelName: types.StringValue(modelName)}
}

// The check reads the template: a mismatch, or a template that cannot be
// read, is an error on template_id.
func TestCheckAdoptedTemplate(t *testing.T) {
	ctx := context.Background()
	e := newTestEmulator(t, emulator.Options{Instant: true})
	r := &importResource{jobRunner: jobRunner{client: testClient(t, e)}}
	salesGL := jobState("640101874288689170", "GL Actuals", modelSales, "Sales Model")
	for _, tc := range []struct {
		template string
		ok       bool
		summary  string
	}{
		{emulator.SalesGLActualsTemplateID, true, ""},
		{emulator.GLActualsTemplateID, false, summaryOtherTemplate},
		{unknownTemplateID, false, "Reading template " + unknownTemplateID + " failed"},
	} {
		var diags diag.Diagnostics
		r.checkAdoptedTemplate(ctx, tc.template, salesGL, &diags)
		if ok := !diags.HasError(); ok != tc.ok {
			t.Errorf("template %s: %v, %v", tc.template, ok, diags)
			continue
		}
		if !tc.ok {
			assertAttrError(t, diags, path.Root("template_id"), "640101874288689170")
			if s := diags.Errors()[0].Summary(); s != tc.summary {
				t.Errorf("template %s: summary %q, want %q", tc.template, s, tc.summary)
			}
		}
	}
	if n := len(e.Jobs()); n != 0 {
		t.Errorf("%d jobs, want 0", n)
	}
}

func TestAdopting(t *testing.T) {
	ctx := context.Background()
	a, null := types.StringValue("a"), types.StringNull()
	// The private flag: an imported job adopts its configuration (a value
	// set from null), but a known value that changes still replaces.
	adopted := fakePrivate{privateAdoptedKey: privateAdoptedValue}
	for _, tc := range []struct {
		name  string
		prior attr.Value
		priv  privateStore
		want  bool
	}{
		{"adopting", null, adopted, true},
		{"adopted but changing a known value", a, adopted, false},
		{"no flag", null, fakePrivate{}, false},
		{"no private state", null, nil, false},
	} {
		if got := adopting(ctx, tc.prior, tc.priv); got != tc.want {
			t.Errorf("%s: adopting %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A job gone from the service is recorded, with a warning that names it,
// says its data stays, and gives the command that starts a new job.
func TestMarkGone(t *testing.T) {
	m := importModel{ID: types.StringValue("640101874288689160"), Status: types.StringValue("COMPLETED")}
	var diags diag.Diagnostics
	markGone(&m, &diags)
	if !isGone(m.Status) || m.Status.ValueString() != "NOT_FOUND" {
		t.Errorf("status %s, want NOT_FOUND", m.Status)
	}
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want one warning, got %v", diags)
	}
	w := diags.Warnings()[0]
	if !strings.Contains(w.Summary(), "640101874288689160") {
		t.Errorf("summary %q does not name the job", w.Summary())
	}
	for _, want := range []string{"640101874288689160", "still in the model", "status NOT_FOUND", "no new job is started", "terraform apply -replace=etl_import.<name>"} {
		if !strings.Contains(w.Detail(), want) {
			t.Errorf("warning %q does not say %q", w.Detail(), want)
		}
	}
	if isGone(types.StringValue("COMPLETED")) || isGone(types.StringNull()) {
		t.Error("isGone of a known job")
	}
	if !strings.Contains(statusNotFoundDoc, statusNotFound) {
		t.Error("the status description does not document NOT_FOUND")
	}
}

// A Delete fails with the problems its replacement's plan recorded, and
// only then.
func TestRefuseDelete(t *testing.T) {
	var diags diag.Diagnostics
	if refuseDelete(t.Context(), fakePrivate{}, "42", &diags) || diags.HasError() {
		t.Fatalf("refused with nothing recorded: %v", diags)
	}
	priv := fakePrivate{}
	setPrivateJSON(t.Context(), priv, privateRefuseDeleteKey, []refusal{{Summary: "File not found", Detail: "file.path: gone"}}, &diags)
	if !refuseDelete(t.Context(), priv, "42", &diags) {
		t.Fatal("not refused")
	}
	if diags.ErrorsCount() != 1 || diags[0].Summary() != "File not found" ||
		!strings.HasPrefix(diags[0].Detail(), "file.path: gone\n\n") || !strings.Contains(diags[0].Detail(), "Nothing was destroyed and no job was started: the state keeps job 42") {
		t.Errorf("diagnostics: %v", diags)
	}
}

// Where the data comes from: the top-level file's path, or each input's
// file path or rows, in key order; nothing for inline data.
func TestDataSources(t *testing.T) {
	ctx := t.Context()
	fileAt := importModel{TemplateID: types.StringValue("7"), File: fileObject(t, "/d/a.csv"), Inputs: types.MapNull(types.ObjectType{AttrTypes: inputAttrTypes})}
	if got, want := dataSources(ctx, fileAt), []string{`file.path="/d/a.csv"`}; !slices.Equal(got, want) {
		t.Errorf("a file: %q, want %q", got, want)
	}
	if got, want := sourceKeys(ctx, fileAt), []string{`"7" file.path="/d/a.csv"`}; !slices.Equal(got, want) {
		t.Errorf("a file's keys: %q, want %q", got, want)
	}
	rows := rowsValue(t, cells("A"), cells("1"))
	inputs := importModel{TemplateID: types.StringValue("7"), File: types.ObjectNull(fileAttrTypes), Inputs: inputsObject(t,
		keyedInput{key: "b", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rows}},
		keyedInput{key: "a", inputModel: inputModel{File: fileObject(t, "/d/in.csv"), Rows: types.ListNull(columnsType)}},
	)}
	want := []string{`inputs[a].file.path="/d/in.csv"`, "inputs[b].rows=" + rows.String()}
	if got := dataSources(ctx, inputs); !slices.Equal(got, want) {
		t.Errorf("inputs: %q, want %q", got, want)
	}
	if got, want := sourceKeys(ctx, inputs), []string{`"7" inputs[a].file.path="/d/in.csv"`}; !slices.Equal(got, want) {
		t.Errorf("inputs' keys (files only): %q, want %q", got, want)
	}
	rowsOnly := importModel{File: types.ObjectNull(fileAttrTypes), Rows: rows, Inputs: types.MapNull(types.ObjectType{AttrTypes: inputAttrTypes})}
	if got := dataSources(ctx, rowsOnly); got != nil {
		t.Errorf("rows: %q, want none", got)
	}
}

// sourceKeys: a file's source names its template, so that the same file
// for another template is another source; inline data and rows outside
// inputs have none.
func TestSourceKeys(t *testing.T) {
	ctx := t.Context()
	m := importModel{ID: types.StringValue("42"), TemplateID: types.StringValue("7"), File: fileObject(t, "/d/a.csv"),
		Inputs: types.MapNull(types.ObjectType{AttrTypes: inputAttrTypes})}
	other := m
	other.TemplateID = types.StringValue("8")
	got, otherKeys := sourceKeys(ctx, m), sourceKeys(ctx, other)
	if len(got) != 1 || len(otherKeys) != 1 || got[0] == otherKeys[0] {
		t.Errorf("sources %q and %q, want one each, told apart by template", got, otherKeys)
	}
	var r importjob.Refreshed
	r.Add("42", got)
	if job := r.JobOf(sourceKeys(ctx, m)); job != "42" {
		t.Errorf("the refreshed object's plan: job %q, want 42", job)
	}
	rows := importModel{TemplateID: types.StringValue("7"), File: types.ObjectNull(fileAttrTypes), Inputs: m.Inputs}
	if keys := sourceKeys(ctx, rows); len(keys) != 0 {
		t.Errorf("rows: sources %q", keys)
	}
}

// Sources are named on the service of the resource's client: two
// configurations that one process serves, on two services, share none.
func TestOnService(t *testing.T) {
	a, b := newTestEmulator(t, emulator.Options{Instant: true}), newTestEmulator(t, emulator.Options{Instant: true})
	ra, rb := &importResource{}, &importResource{}
	ra.client, rb.client = testClient(t, a), testClient(t, b)
	src := []string{importjob.ImportedSource("600")}
	var r importjob.Refreshed
	r.Add("43", ra.onService(src))
	if job := r.JobOf(ra.onService(src)); job != "43" {
		t.Errorf("the same service: job %q, want 43", job)
	}
	if job := r.JobOf(rb.onService(src)); job != "" {
		t.Errorf("another service: job %q, want none", job)
	}
	if got := (&importResource{}).onService(src); !slices.Equal(got, []string{" " + src[0]}) {
		t.Errorf("no client: %q", got)
	}
}
