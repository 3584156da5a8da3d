package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/action/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The action takes what the resource takes to define a job, and its file
// blocks (top-level and each input's) are the resource's: the same
// validators and descriptions (less what a change does to the resource's
// job), less the write-only content_wo.
func TestImportActionSchema(t *testing.T) {
	ctx := context.Background()
	var resp action.SchemaResponse
	(&importAction{}).Schema(ctx, action.SchemaRequest{}, &resp)
	if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatalf("schema: %v", d)
	}
	got := slices.Sorted(maps.Keys(resp.Schema.Attributes))
	want := []string{"file", "inputs", "rows", "submit", "template_id", "timeouts", "wait_for_completion"}
	if !slices.Equal(got, want) {
		t.Errorf("attributes %v, want %v", got, want)
	}

	res := importSchema(t)
	file := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	expectActionFile(t, "file", file, res.Attributes["file"].(rschema.SingleNestedAttribute))
	if rows := resp.Schema.Attributes["rows"].(schema.ListAttribute); len(rows.Validators) != 1 {
		t.Errorf("rows: %d validators, want the resource's rows validator", len(rows.Validators))
	}

	// inputs: the resource's, each input's file less content_wo.
	inputs, ok := resp.Schema.Attributes["inputs"].(schema.MapNestedAttribute)
	if !ok {
		t.Fatalf("inputs is %T, want a map of objects", resp.Schema.Attributes["inputs"])
	}
	resInputs := res.Attributes["inputs"].(rschema.MapNestedAttribute)
	if !inputs.Optional || len(inputs.Validators) != len(resInputs.Validators) {
		t.Errorf("inputs: optional %v, %d validators; want optional and the resource's %d", inputs.Optional, len(inputs.Validators), len(resInputs.Validators))
	}
	if got := slices.Sorted(maps.Keys(inputs.NestedObject.Attributes)); !slices.Equal(got, []string{"file", "rows"}) {
		t.Errorf("an input has %v, want [file rows]", got)
	}
	inFile := inputs.NestedObject.Attributes["file"].(schema.SingleNestedAttribute)
	resInFile := resInputs.NestedObject.Attributes["file"].(rschema.SingleNestedAttribute)
	expectActionFile(t, "inputs file", inFile, resInFile)
	if len(inFile.Validators) != 1 || !strings.Contains(inFile.Validators[0].Description(ctx), "[rows]") {
		t.Errorf("inputs file: validators %v, want exactly one of file and rows", inFile.Validators)
	}
	inRows := inputs.NestedObject.Attributes["rows"].(schema.ListAttribute)
	resInRows := resInputs.NestedObject.Attributes["rows"].(rschema.ListAttribute)
	if !inRows.Optional || len(inRows.Validators) != 1 || inRows.MarkdownDescription != resInRows.MarkdownDescription {
		t.Errorf("inputs rows: %+v, want the resource's", inRows)
	}

	// Every description speaks of invocations, never of what a change does
	// to a job (the resource's words).
	for at, d := range actionDescriptions("", resp.Schema.Attributes) {
		for _, w := range []string{"starts a new job", "starts no job", "no job starts", "in place", "Changing", "a change"} {
			if strings.Contains(d, w) {
				t.Errorf("%s: description %q has the resource's words %q", at, d, w)
			}
		}
	}
	for _, at := range []string{"inputs", "submit", "wait_for_completion", "template_id"} {
		if d := resp.Schema.Attributes[at].GetMarkdownDescription(); !strings.Contains(d, "invocation") {
			t.Errorf("%s: description %q does not speak of invocations", at, d)
		}
	}
}

// expectActionFile asserts that the action's file block (at) is the
// resource's (res) less content_wo: each attribute optional, with the
// resource's validators and its description less the sentences about
// changes.
func expectActionFile(t *testing.T, at string, file schema.SingleNestedAttribute, res rschema.SingleNestedAttribute) {
	t.Helper()
	ctx := context.Background()
	wantFile := slices.DeleteFunc(slices.Sorted(maps.Keys(res.Attributes)), func(s string) bool { return s == "content_wo" })
	if got := slices.Sorted(maps.Keys(file.Attributes)); !slices.Equal(got, wantFile) {
		t.Errorf("%s attributes %v, want the resource's less content_wo: %v", at, got, wantFile)
	}
	for name, a := range file.Attributes {
		s := a.(schema.StringAttribute)
		r := res.Attributes[name].(rschema.StringAttribute)
		if !s.Optional || s.MarkdownDescription != invocationDescription(r.MarkdownDescription) || len(s.Validators) != len(r.Validators) {
			t.Errorf("%s.%s: optional %v, %d validators; want optional and the resource's description and %d validators", at, name, s.Optional, len(s.Validators), len(r.Validators))
		}
	}
	// path's exactly-one rule names only what the action has.
	var rules []string
	for _, v := range file.Attributes["path"].(schema.StringAttribute).Validators {
		rules = append(rules, v.Description(ctx))
	}
	if s := strings.Join(rules, " "); !strings.Contains(s, "[content]") || strings.Contains(s, "content_wo") {
		t.Errorf("%s.path validators %q: want the exactly-one rule of path and content alone", at, s)
	}
}

// actionDescriptions returns the description of every attribute, nested
// ones included, by path.
func actionDescriptions(prefix string, attrs map[string]schema.Attribute) map[string]string {
	out := map[string]string{}
	for name, a := range attrs {
		at := prefix + name
		out[at] = a.GetMarkdownDescription()
		switch n := a.(type) {
		case schema.SingleNestedAttribute:
			maps.Copy(out, actionDescriptions(at+".", n.Attributes))
		case schema.MapNestedAttribute:
			maps.Copy(out, actionDescriptions(at+"[key].", n.NestedObject.Attributes))
		}
	}
	return out
}

func TestInvocationDescription(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Defaults to `UTF-8`. Changing it starts a new job.", "Defaults to `UTF-8`."},
		{"Such as `\"a.csv\"`. Its bytes. Changing the path updates in place and starts no job when the bytes are the same (a moved file).", "Such as `\"a.csv\"`. Its bytes."},
		{"Defaults to `file`. It is sent as written. Changing it updates in place: no job starts.", "Defaults to `file`. It is sent as written."},
		{"Extensions `.csv`, `.psv`; required when none. `path` wins.", "Extensions `.csv`, `.psv`; required when none. `path` wins."},
	} {
		if got := invocationDescription(c.in); got != c.want {
			t.Errorf("invocationDescription(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func actionFile(t *testing.T, vals map[string]attr.Value) types.Object {
	t.Helper()
	for name := range actionFileAttrTypes {
		if _, ok := vals[name]; !ok {
			vals[name] = types.StringNull()
		}
	}
	obj, d := types.ObjectValue(actionFileAttrTypes, vals)
	if d.HasError() {
		t.Fatal(d)
	}
	return obj
}

// job is the resource's model of the job, with the file's defaults: what
// the resource's checks, hashing and upload read.
func TestImportActionModelJob(t *testing.T) {
	ctx := context.Background()
	rowsNull := types.ListNull(types.ListType{ElemType: types.StringType})
	a := importActionModel{TemplateID: types.StringValue("1"), Rows: rowsNull, Submit: types.BoolValue(true), WaitForCompletion: types.BoolNull(),
		File: actionFile(t, map[string]attr.Value{"path": types.StringValue("/data/gl.tsv")})}
	m, d := a.spec(ctx)
	if d.HasError() {
		t.Fatal(d)
	}
	f, d := fileFrom(ctx, m.File)
	if d.HasError() || f == nil {
		t.Fatalf("file: %v", d)
	}
	if f.Format.ValueString() != "TDF" || f.Name.ValueString() != "gl.tsv" || f.Encoding.ValueString() != "UTF-8" || f.PartName.ValueString() != "file" || !f.ContentWO.IsNull() {
		t.Errorf("file %+v: want the defaults filled in", f)
	}
	if !m.ContentSHA256.IsUnknown() || !m.Rows.IsNull() || !m.Submit.ValueBool() || m.TemplateID.ValueString() != "1" {
		t.Errorf("model %+v", m)
	}

	a.File = types.ObjectUnknown(actionFileAttrTypes)
	if m, d = a.spec(ctx); d.HasError() || !m.File.IsUnknown() {
		t.Errorf("unknown file: %v %v", m.File, d)
	}
	a.File = types.ObjectNull(actionFileAttrTypes)
	a.Rows = rowsValue(t, cells("A"), cells("1"))
	if m, d = a.spec(ctx); d.HasError() || !m.File.IsNull() || !m.Rows.Equal(a.Rows) {
		t.Errorf("rows: %+v %v", m, d)
	}
}

func TestImportActionModelTimeout(t *testing.T) {
	ctx := context.Background()
	tv := func(v attr.Value) timeouts.Value {
		return timeouts.Value{Object: types.ObjectValueMust(map[string]attr.Type{"invoke": types.StringType}, map[string]attr.Value{"invoke": v})}
	}
	if d, diags := (importActionModel{Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"invoke": types.StringType})}}).timeout(ctx); d != defaultCreateTimeout || diags.HasError() {
		t.Errorf("no timeouts: %s %v", d, diags)
	}
	if d, diags := (importActionModel{Timeouts: tv(types.StringNull())}).timeout(ctx); d != defaultCreateTimeout || diags.HasError() {
		t.Errorf("default: %s %v", d, diags)
	}
	if d, diags := (importActionModel{Timeouts: tv(types.StringValue("90s"))}).timeout(ctx); d != 90*time.Second || diags.HasError() {
		t.Errorf("90s: %s %v", d, diags)
	}
	if _, diags := (importActionModel{Timeouts: tv(types.StringValue("5"))}).timeout(ctx); !diags.HasError() {
		t.Error("5: no error")
	}
}

// With inputs, the model holds them as the resource's inputs (each file
// with its defaults, content_wo null), and submit defaults to true.
func TestImportActionModelInputs(t *testing.T) {
	ctx := context.Background()
	inputType := types.ObjectType{AttrTypes: map[string]attr.Type{"file": types.ObjectType{AttrTypes: actionFileAttrTypes}, "rows": inputAttrTypes["rows"]}}
	rows := rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1.08"))
	listNull := types.ListNull(rows.ElementType(ctx))
	inputs := types.MapValueMust(inputType, map[string]attr.Value{
		"Load Actuals": types.ObjectValueMust(inputType.AttrTypes, map[string]attr.Value{
			"file": actionFile(t, map[string]attr.Value{"path": types.StringValue("/data/actuals.psv")}), "rows": listNull}),
		"Load Rates": types.ObjectValueMust(inputType.AttrTypes, map[string]attr.Value{"file": types.ObjectNull(actionFileAttrTypes), "rows": rows}),
	})
	a := importActionModel{TemplateID: types.StringValue("1"), File: types.ObjectNull(actionFileAttrTypes), Rows: listNull, Inputs: inputs,
		Submit: types.BoolNull(), WaitForCompletion: types.BoolNull()}
	m, d := a.spec(ctx)
	if d.HasError() {
		t.Fatal(d)
	}
	if !m.Submit.Equal(types.BoolValue(true)) || !m.File.IsNull() {
		t.Errorf("submit %v, file %v: want true (the default with inputs) and no file", m.Submit, m.File)
	}
	ins, isKnown, d := inputsFrom(ctx, m.Inputs)
	if d.HasError() || !isKnown || len(ins) != 2 || ins[0].key != "Load Actuals" || !ins[1].Rows.Equal(rows) || !ins[1].File.IsNull() {
		t.Fatalf("inputs %+v (%v, %v)", ins, isKnown, d)
	}
	f, _ := fileFrom(ctx, ins[0].File)
	if f.Format.ValueString() != "PSV" || f.Name.ValueString() != "actuals.psv" || f.Encoding.ValueString() != "UTF-8" || f.PartName.ValueString() != "file" || !f.ContentWO.IsNull() {
		t.Errorf("input file %+v: want the defaults filled in, content_wo null", f)
	}

	a.Submit = types.BoolValue(false)
	if m, _ = a.spec(ctx); m.Submit.ValueBool() {
		t.Error("submit = false with inputs: want false as configured")
	}
	a.Inputs = types.MapValueMust(inputType, map[string]attr.Value{"Load Rates": types.ObjectUnknown(inputType.AttrTypes)})
	if m, d = a.spec(ctx); d.HasError() {
		t.Fatal(d)
	} else if _, isKnown, _ := inputsFrom(ctx, m.Inputs); isKnown {
		t.Error("an unknown input is known")
	}
	a.Inputs = types.MapNull(inputType)
	a.Submit = types.BoolNull()
	if m, _ = a.spec(ctx); !m.Inputs.IsNull() || m.Submit.ValueBool() {
		t.Errorf("no inputs: inputs %v, submit %v; want null and false", m.Inputs, m.Submit)
	}
}
