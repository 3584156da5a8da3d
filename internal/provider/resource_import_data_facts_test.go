package provider

import (
	"context"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

func TestKeepUnchanged(t *testing.T) {
	known := dataFacts{Columns: stringList([]string{"A"}), RowCount: types.Int64Value(5), SizeBytes: types.Int64Value(9)}
	// Unknown planned values (a trusted record without counts) take the state's.
	if got := keepUnchanged(unknownFacts(false), known); !got.equal(known) {
		t.Errorf("unknown planned: %+v", got)
	}
	// A state from before the values existed stays null: an empty plan.
	if got := keepUnchanged(known, nullFacts()); !got.equal(nullFacts()) {
		t.Errorf("null state: %+v", got)
	}
	// Known planned values win over known state values.
	other := dataFacts{Columns: stringList([]string{"B"}), RowCount: types.Int64Value(6), SizeBytes: types.Int64Value(10)}
	if got := keepUnchanged(other, known); !got.RowCount.Equal(other.RowCount) || !got.Columns.Equal(other.Columns) {
		t.Errorf("known planned: %+v", got)
	}
}

func TestRefreshFacts(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("Account", "Amount"), cells("4000", "1"))
	m := importModel{Rows: rows, File: types.ObjectNull(fileAttrTypes), Inputs: types.MapNull(types.StringType),
		ContentSHA256: types.StringValue(sha256Hex(nil))}
	m.dataFacts = nullFacts()
	if !refreshFacts(ctx, &m, newHashCache(false), etl.MaxDataBodyBytes) {
		t.Fatal("rows in state: not filled")
	}
	wantFacts(t, m.dataFacts, []string{"Account", "Amount"}, 1, int64(len(rowsBody(t, [][]string{{"Account", "Amount"}, {"4000", "1"}}))))
	if refreshFacts(ctx, &m, newHashCache(false), etl.MaxDataBodyBytes) {
		t.Error("filled twice")
	}
	// A file: from the disk cache's record of it as it is now, when it has
	// counts and the hash in state.
	p := oldFile(t, factsCSV)
	f := withDefaults(fileModel{Path: types.StringValue(p), Content: types.StringNull(), ContentWO: types.StringNull(),
		Format: types.StringNull(), Encoding: types.StringValue("UTF-8"), Name: types.StringNull(), PartName: types.StringNull()})
	var d diag.Diagnostics
	sum, err := newHashCache(true).planFileSHA256(ctx, f, &d) // into the disk cache
	if err != nil {
		t.Fatal(err)
	}
	fileObj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, f)
	if diags.HasError() {
		t.Fatal(diags)
	}
	mf := importModel{Rows: types.ListNull(columnsType), File: fileObj, Inputs: types.MapNull(types.StringType), ContentSHA256: types.StringValue(sum)}
	mf.dataFacts = nullFacts()
	if refreshFacts(ctx, &mf, newHashCache(false), etl.MaxDataBodyBytes) {
		t.Error("filled with the cache off")
	}
	if !refreshFacts(ctx, &mf, newHashCache(true), etl.MaxDataBodyBytes) {
		t.Fatal("file with a counted record: not filled")
	}
	wantFacts(t, mf.dataFacts, []string{"Account", "Amount"}, 3, int64(len(factsCSV)))
	// Another hash in state: left as it is.
	mf.dataFacts = nullFacts()
	mf.ContentSHA256 = types.StringValue(sha256Hex([]byte("other")))
	if refreshFacts(ctx, &mf, newHashCache(true), etl.MaxDataBodyBytes) {
		t.Error("filled from the record of other bytes")
	}
	// The file changed since: left as it is (its record is not trusted).
	mf.dataFacts = nullFacts()
	mf.ContentSHA256 = types.StringValue(sum)
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if refreshFacts(ctx, &mf, newHashCache(true), etl.MaxDataBodyBytes) {
		t.Error("filled from the record of the file before its change")
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
