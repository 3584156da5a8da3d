package provider

import (
	"context"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// TestRefreshRecord: a refresh takes the disk cache's trusted record for
// the hash in state into private state.
func TestRefreshRecord(t *testing.T) {
	ctx := context.Background()
	p := oldFile(t, "Account,Amount\n4000,1\n")
	want := localfile.HashBytes([]byte("Account,Amount\n4000,1\n"))
	f := fileModel{Path: types.StringValue(p), Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-8"), Name: types.StringNull(), Content: types.StringNull(), PartName: types.StringNull()}
	var d diag.Diagnostics
	if _, err := newHashCache(ctx, true, nil).planFileSHA256(ctx, f, &d); err != nil { // into the disk cache
		t.Fatal(err)
	}
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	if diags.HasError() {
		t.Fatal(diags)
	}
	for _, tc := range []struct {
		name string
		on   bool
		sum  string
		want bool
	}{
		{"same hash", true, want, true},
		{"another hash in state", true, localfile.HashBytes(nil), false},
		{"cache off", false, want, false},
	} {
		resp := fakePrivate{}
		refreshRecord(ctx, tc.on, &importModel{File: obj, ContentSHA256: types.StringValue(tc.sum)}, fakePrivate{}, resp, &d)
		if got := recordFrom(ctx, resp); (got != nil && got.SHA256 == want) != tc.want {
			t.Errorf("%s: private record %+v", tc.name, got)
		}
	}
}

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
	if _, err := newHashCache(ctx, true, fakePrivate{}).planFileSHA256(ctx, f, &d); err != nil {
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
