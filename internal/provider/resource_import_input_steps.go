package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// saveInputSteps keeps, in the planned private state (and so in the
// job's), the entries of a job with inputs: which step of the template
// each input loads, and the input id that step had. A later plan compares
// them with the template as it is then (importjob.SameStepsNewIDs).
func saveInputSteps(ctx context.Context, entries []inputEntry, p privateSetter, diags *diag.Diagnostics) {
	if entries != nil {
		setPrivateJSON(ctx, p, privateInputStepsKey, entries, diags)
	}
}

// inputStepsFrom reads what saveInputSteps kept; nil when nothing.
func inputStepsFrom(ctx context.Context, p privateGetter) []inputEntry {
	if e, ok := privateJSON[[]inputEntry](ctx, p, privateInputStepsKey); ok {
		return *e
	}
	return nil
}

// rehashed reports whether the plan recorded a new content_sha256 for the
// same data (importjob.ChangePlan.Rehash).
func rehashed(ctx context.Context, p privateGetter) bool {
	v, _ := p.GetKey(ctx, privateRehashedKey)
	return len(v) > 0
}
