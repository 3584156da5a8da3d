package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
		for _, m := range s.PlanModifiers {
			if m.Description(ctx) == replaceDescription {
				t.Errorf("inputs file.%s replaces the job by itself", name)
			}
		}
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
	if d := resp.Schema.Attributes["content_sha256"].GetMarkdownDescription(); !strings.Contains(d, "`<input id>\\n<format>\\n<encoding>\\n<SHA-256 hex of the input's bytes>\\n`") {
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
