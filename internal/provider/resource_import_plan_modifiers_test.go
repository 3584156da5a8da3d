package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestAdopting(t *testing.T) {
	ctx := context.Background()
	a, null := types.StringValue("a"), types.StringNull()
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
