package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// TestConfiguredTimeout: a set timeout is read; an unset one is the
// default, with no log line.
func TestConfiguredTimeout(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	typ := map[string]attr.Type{"create": types.StringType, "delete": types.StringType}
	value := func(create attr.Value) timeouts.Value {
		return timeouts.Value{Object: types.ObjectValueMust(typ, map[string]attr.Value{"create": create, "delete": types.StringNull()})}
	}
	for name, v := range map[string]timeouts.Value{
		"no timeouts": {Object: types.ObjectNull(typ)},
		"create null": value(types.StringNull()),
	} {
		if d, diags := configuredTimeout(ctx, v.Object, "create", time.Minute, v.Create); d != time.Minute || diags.HasError() {
			t.Errorf("%s: %s, %v; want the default", name, d, diags)
		}
	}
	v := value(types.StringValue("90s"))
	if d, diags := configuredTimeout(ctx, v.Object, "create", time.Minute, v.Create); d != 90*time.Second || diags.HasError() {
		t.Errorf("90s: %s, %v", d, diags)
	}
	if strings.Contains(out.String(), "not found") || strings.Contains(out.String(), "null or unknown") {
		t.Errorf("a default was logged: %s", out.String())
	}
}
