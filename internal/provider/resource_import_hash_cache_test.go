package provider

import (
	"context"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// TestCachedFileSHA256: an input's file at apply has the disk cache's hash
// when the record is trusted for it as it is now; otherwise none (the file
// is then read and hashed before anything is created).
func TestCachedFileSHA256(t *testing.T) {
	ctx := context.Background()
	content := "Account,Amount\n4000,1\n"
	p := oldFile(t, content)
	f := fileModel{Path: types.StringValue(p), Content: types.StringNull(), Format: types.StringNull(), Encoding: types.StringNull(), Name: types.StringNull(), PartName: types.StringNull()}
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if got := cachedFileSHA256(ctx, obj, true); !got.IsNull() {
		t.Fatalf("no record yet: %s", got)
	}
	var d diag.Diagnostics
	if _, err := newHashCache(true).planFileSHA256(ctx, f, &d); err != nil {
		t.Fatal(err)
	}
	if got := cachedFileSHA256(ctx, obj, true); got.ValueString() != localfile.HashBytes([]byte(content)) {
		t.Fatalf("recorded by a plan: %s", got)
	}
	if got := cachedFileSHA256(ctx, obj, false); !got.IsNull() {
		t.Fatalf("cache off: %s", got)
	}
	if err := os.Chmod(p, 0o640); err != nil { // the change time moves
		t.Fatal(err)
	}
	if got := cachedFileSHA256(ctx, obj, true); !got.IsNull() {
		t.Fatalf("after a chmod: %s", got)
	}
}
