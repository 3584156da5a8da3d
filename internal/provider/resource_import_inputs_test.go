package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

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
	if d := resp.Schema.Attributes["content_sha256"].GetMarkdownDescription(); !strings.Contains(d, "With `inputs`, one hash over every input") {
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
