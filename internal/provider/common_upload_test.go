package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

func TestPrepareUpload(t *testing.T) {
	ctx := context.Background()
	rows := [][]string{{"Account", "Amount"}, {"4000", "1"}}
	m := &importSpec{Rows: rowsValue(t, cells(rows[0]...), cells(rows[1]...)), File: types.ObjectNull(fileAttrTypes), ContentSHA256: types.StringUnknown()}
	up, d := prepareUpload(ctx, m, writeOnlyData{}, etl.MaxDataBodyBytes)
	if want, _ := (etl.DataUpload{Rows: rows}).SHA256(); d.HasError() || up.data == nil || up.file != nil || up.sum != want {
		t.Fatalf("rows: %+v, %v", up, d)
	}

	// The bytes planned are the bytes sent: a different planned hash stops
	// the upload with an error on the attribute that holds the data.
	if !up.checkPlanned(types.StringUnknown(), &d) || !up.checkPlanned(types.StringValue(up.sum), &d) || d.HasError() {
		t.Fatalf("planned hash unknown or equal: %v", d)
	}
	if up.checkPlanned(types.StringValue(localfile.HashBytes([]byte("other"))), &d) {
		t.Fatal("a different planned hash passed")
	}
	assertAttrError(t, d, path.Root("rows"), "changed between plan and apply", "Nothing was sent")

	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: types.StringNull(), Content: types.StringValue("A,B\n1,2\n"),
		Format: types.StringValue("CSV"), Encoding: types.StringValue("UTF-16"), Name: types.StringUnknown(), PartName: types.StringValue("file")})
	if diags.HasError() {
		t.Fatal(diags)
	}
	up, d = prepareUpload(ctx, &importSpec{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: obj, ContentSHA256: types.StringUnknown()}, writeOnlyData{}, etl.MaxDataBodyBytes)
	want, _ := etl.EncodeText("A,B\n1,2\n", flatfile.EncodingUTF16)
	if d.HasError() || up.file == nil || up.sum != localfile.HashBytes(want) || up.file.Size != int64(len(want)) || up.file.Input.FileName != "data.csv" {
		t.Fatalf("inline content: %+v, %v", up, d)
	}
}
