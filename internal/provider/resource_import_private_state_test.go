package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

func TestIsAdopted(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	if isAdopted(ctx, p) || isAdopted(ctx, nil) {
		t.Fatal("adopted without the key")
	}
	p[privateAdoptedKey] = privateAdoptedValue
	if !isAdopted(ctx, p) {
		t.Fatal("not adopted with the key set")
	}
}

// A value that cannot be encoded is an error, not a silent no-op.
func TestSetPrivateJSON_encodingError(t *testing.T) {
	var diags diag.Diagnostics
	setPrivateJSON(context.Background(), fakePrivate{}, "k", func() {}, &diags)
	if !diags.HasError() {
		t.Fatal("a function value was kept without an error")
	}
}
