package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

func TestRecordPrivateState(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	if recordFrom(ctx, p) != nil || recordFrom(ctx, nil) != nil {
		t.Fatal("a record from empty private state")
	}
	r := &localfile.Record{Path: "/data/f3.csv", ID: localfile.Identity{Size: 3, MtimeNs: 1, CtimeNs: 2, Inode: 3, Device: 7}, SHA256: sha256Hex([]byte("3")), HashedAt: 42, Checked: "CSV/UTF-8"}
	var d diag.Diagnostics
	saveRecord(ctx, p, r, &d)
	if got := recordFrom(ctx, p); d.HasError() || got == nil || *got != *r {
		t.Fatalf("recordFrom = %+v, %v; want %+v", got, d, r)
	}
	p[privateHashKey] = []byte(`"not a record"`)
	if recordFrom(ctx, p) != nil {
		t.Error("a record from a damaged value")
	}
}

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
