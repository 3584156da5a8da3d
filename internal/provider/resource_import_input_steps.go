package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// saveInputSteps keeps, in the planned private state (and so in the
// job's), the entries of a job with inputs: which step of the template
// each input loads, and the input id that step had. A later plan compares
// them with the template as it is then (sameStepsNewIDs).
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

// sameStepsNewIDs reports whether the job's prior content_sha256 is the
// hash of entries with only the input ids changed to those the job was
// loaded with: every input loads a step of the same name, at the same
// position, with the same bytes, format and encoding, and only the
// template's input ids changed on the service. The service then imports
// the same way.
func sameStepsNewIDs(prior []inputEntry, entries []inputEntry, priorSum string) bool {
	if prior == nil || len(prior) != len(entries) {
		return false
	}
	old := make([]inputEntry, len(entries))
	for i, e := range entries {
		j := stepIndex(prior, e)
		if j < 0 {
			return false
		}
		e.InputID = prior[j].InputID
		old[i] = e
	}
	return inputsHash(old) == priorSum
}

// stepIndex is the index of the entry of prior that loads the same step
// (name and position) as e; -1 when none.
func stepIndex(prior []inputEntry, e inputEntry) int {
	for i, p := range prior {
		if p.StepName == e.StepName && p.Position == e.Position {
			return i
		}
	}
	return -1
}

// rehashed reports whether the plan recorded a new content_sha256 for the
// same data (importjob.ChangePlan.Rehash).
func rehashed(ctx context.Context, p privateGetter) bool {
	v, _ := p.GetKey(ctx, privateRehashedKey)
	return len(v) > 0
}
