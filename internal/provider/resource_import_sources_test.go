package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
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

// A refresh remembers the files of the object it read; a plan with one of
// them is that of the object's job. A nil registry remembers nothing.
func TestRefreshedSources(t *testing.T) {
	ctx := t.Context()
	m := importModel{ID: types.StringValue("42"), TemplateID: types.StringValue("7"), File: fileObject(t, "/d/a.csv"),
		Inputs: types.MapNull(types.ObjectType{AttrTypes: inputAttrTypes})}
	var s refreshedSources
	if job := s.jobOf(sourceKeys(ctx, m)); job != "" {
		t.Errorf("before any refresh: job %q", job)
	}
	s.add(ctx, m)
	if job := s.jobOf(sourceKeys(ctx, m)); job != "42" {
		t.Errorf("after its refresh: job %q, want 42", job)
	}
	other := m
	other.TemplateID = types.StringValue("8")
	if job := s.jobOf(sourceKeys(ctx, other)); job != "" {
		t.Errorf("the same file for another template: job %q, want none", job)
	}
	var none *refreshedSources
	none.add(ctx, m)
	if job := none.jobOf(sourceKeys(ctx, m)); job != "" {
		t.Errorf("nil registry: job %q", job)
	}
}
