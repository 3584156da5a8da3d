package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// configuredTimeout returns what get reads when the timeouts object sets
// name, else def without calling get: the timeouts library logs an INFO
// line ("... timeout configuration not found") for every default it
// falls back to, which would stand in every create's log.
func configuredTimeout(ctx context.Context, timeouts types.Object, name string, def time.Duration,
	get func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
) (time.Duration, diag.Diagnostics) {
	if timeouts.IsNull() || timeouts.IsUnknown() {
		return def, nil
	}
	if v, ok := timeouts.Attributes()[name]; !ok || v.IsNull() || v.IsUnknown() {
		return def, nil
	}
	return get(ctx, def)
}
