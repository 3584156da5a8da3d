package provider

// Fakes of the framework's interfaces for unit tests.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// fakePrivate is a resource's private state, read and written in memory.
type fakePrivate map[string][]byte

// GetKey returns the value stored at k (nil when none is).
func (f fakePrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return f[k], nil }

// SetKey stores v at k.
func (f fakePrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	f[k] = v
	return nil
}
