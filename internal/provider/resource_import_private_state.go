package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The keys etl_import keeps in its private state, and how they are read
// and written.
const (
	// privateAdoptedKey marks a job that was imported and has not yet
	// adopted its configuration (privateAdoptedValue).
	privateAdoptedKey = "adopted"
	// privatePlannedCreateKey holds, in the plan of a new object only,
	// what its job imports and which live job it replaces (plannedCreate).
	privatePlannedCreateKey = "planned_create"
	// privateLiveKey holds, in the plan of a live object, its job id: the
	// second plan of the object's replacement sees it (markLive).
	privateLiveKey = "live_job"
	// privateInputStepsKey holds the steps a job's inputs were loaded
	// into, with their input ids then (saveInputSteps).
	privateInputStepsKey = "input_steps"
	// privateRehashedKey marks, in a plan, a content_sha256 recorded anew
	// for the same data (importjob.ChangePlan.Rehash).
	privateRehashedKey = "rehashed"
	// privateRefuseDeleteKey holds, in the plan of a replacement whose new
	// job's data could not be read, the problems its Delete fails with
	// (refuseDelete).
	privateRefuseDeleteKey = "refuse_delete"
	// privateUnverifiedKey marks, in the plan of a change in place, data
	// named in another place than the state's that the plan could not read
	// (privateAdoptedValue): the apply reads it (verifyKeptData).
	privateUnverifiedKey = "unverified"
)

// privateAdoptedValue is the value of a flag kept in private state
// (privateAdoptedKey, privateRehashedKey) while it is set.
var privateAdoptedValue = []byte(`true`)

// privateGetter is the read side of the framework's private state.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateSetter is the write side of the framework's private state.
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// privateStore is a private state read and written.
type privateStore interface {
	privateGetter
	privateSetter
}

// isAdopted reports whether private state marks an imported job that has
// not yet adopted its configuration.
func isAdopted(ctx context.Context, p privateGetter) bool {
	if p == nil {
		return false
	}
	v, _ := p.GetKey(ctx, privateAdoptedKey)
	return len(v) > 0
}

// privateJSON reads the JSON value of key from private state into a new
// T; false when there is none or it cannot be read.
func privateJSON[T any](ctx context.Context, p privateGetter, key string) (*T, bool) {
	if p == nil {
		return nil, false
	}
	b, diags := p.GetKey(ctx, key)
	var v T
	if diags.HasError() || len(b) == 0 || json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	return &v, true
}

// setPrivateJSON stores v as the JSON value of key in private state.
func setPrivateJSON(ctx context.Context, p privateSetter, key string, v any, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		diags.AddError("Keeping private state failed", fmt.Sprintf("The provider could not encode its private state %q: %s. This is a bug in the provider; please report it.", key, err))
		return
	}
	diags.Append(p.SetKey(ctx, key, b)...)
}
