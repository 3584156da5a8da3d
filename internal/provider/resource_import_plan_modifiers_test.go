package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// rawObject is a resource state or plan that is null (create, destroy) or
// not.
func rawObject(null bool) tftypes.Value {
	if null {
		return tftypes.NewValue(tftypes.Object{}, nil)
	}
	return tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})
}

func TestReplaceUnlessAdopting(t *testing.T) {
	ctx := context.Background()
	a, b, null := types.StringValue("a"), types.StringValue("b"), types.StringNull()
	cases := []struct {
		name              string
		stateRaw, planRaw bool // raw null
		state, plan       types.String
		want              bool
	}{
		{"create", true, false, null, a, false},
		{"destroy", false, true, a, null, false},
		{"unchanged", false, false, a, a, false},
		{"changed", false, false, a, b, true},
		{"set from null", false, false, null, a, true},
		{"unknown", false, false, a, types.StringUnknown(), true},
	}
	for _, tc := range cases {
		req := planmodifier.StringRequest{
			State: tfsdk.State{Raw: rawObject(tc.stateRaw)}, Plan: tfsdk.Plan{Raw: rawObject(tc.planRaw)},
			StateValue: tc.state, PlanValue: tc.plan,
		}
		resp := &planmodifier.StringResponse{PlanValue: tc.plan}
		replaceString.PlanModifyString(ctx, req, resp)
		if resp.RequiresReplace != tc.want {
			t.Errorf("%s: replace %v, want %v", tc.name, resp.RequiresReplace, tc.want)
		}
	}

	// replaceKnownString: the same rule, but a value unknown at plan time
	// is left to the apply (checkUnchangedAtApply).
	for _, tc := range cases {
		req := planmodifier.StringRequest{
			State: tfsdk.State{Raw: rawObject(tc.stateRaw)}, Plan: tfsdk.Plan{Raw: rawObject(tc.planRaw)},
			StateValue: tc.state, PlanValue: tc.plan,
		}
		resp := &planmodifier.StringResponse{PlanValue: tc.plan}
		replaceKnownString.PlanModifyString(ctx, req, resp)
		if want := tc.want && !tc.plan.IsUnknown(); resp.RequiresReplace != want {
			t.Errorf("replaceKnownString, %s: replace %v, want %v", tc.name, resp.RequiresReplace, want)
		}
	}

	// Bool and List attributes follow the same rule.
	boolResp := &planmodifier.BoolResponse{PlanValue: types.BoolValue(true)}
	replaceBool.PlanModifyBool(ctx, planmodifier.BoolRequest{
		State: tfsdk.State{Raw: rawObject(false)}, Plan: tfsdk.Plan{Raw: rawObject(false)},
		StateValue: types.BoolValue(false), PlanValue: types.BoolValue(true),
	}, boolResp)
	if !boolResp.RequiresReplace {
		t.Error("bool changed: no replacement")
	}
	rows := func(s string) types.List {
		return types.ListValueMust(types.StringType, []attr.Value{types.StringValue(s)})
	}
	listResp := &planmodifier.ListResponse{PlanValue: rows("2")}
	replaceList.PlanModifyList(ctx, planmodifier.ListRequest{
		State: tfsdk.State{Raw: rawObject(false)}, Plan: tfsdk.Plan{Raw: rawObject(false)},
		StateValue: rows("1"), PlanValue: rows("2"),
	}, listResp)
	if !listResp.RequiresReplace {
		t.Error("list changed: no replacement")
	}

	// The private flag: an imported job adopts its configuration (a value
	// set from null), but a known value that changes still replaces.
	adopted := fakePrivate{privateAdoptedKey: privateAdoptedValue}
	for _, tc := range []struct {
		name  string
		prior attr.Value
		priv  privateGetter
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
