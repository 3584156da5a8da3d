package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

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
