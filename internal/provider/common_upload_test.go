package provider

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// TestAbortOnChange: the reader of an attempt aborts the upload
// (etl.UploadAbortedError, so that it is not retried) when the file's bytes
// are not the planned ones, and never hands over the file's last bytes.
func TestAbortOnChange(t *testing.T) {
	content := repeatCSV("Account,Amount", "4000,1", 100000)
	p := writeFile(t, t.TempDir(), "gl.csv", content)
	for _, tc := range []struct {
		name string
		want string
		ok   bool
	}{
		{"match", sha256Hex(content), true},
		{"mismatch", sha256Hex([]byte("other")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			of, err := localfile.Open(p, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			defer of.Close()
			rc, _ := abortOnChange(of)()
			got, err := io.ReadAll(rc)
			if tc.ok {
				if err != nil || !bytes.Equal(got, content) {
					t.Fatalf("read %d bytes, %v", len(got), err)
				}
				return
			}
			var aborted *etl.UploadAbortedError
			if !errors.As(err, &aborted) {
				t.Fatalf("error %v, want an UploadAbortedError", err)
			}
			if len(got) >= len(content) {
				t.Fatalf("handed over %d of %d bytes: the last ones must be withheld", len(got), len(content))
			}
			if _, err2 := rc.Read(make([]byte, 10)); !errors.As(err2, &aborted) {
				t.Fatalf("the error is not sticky: %v", err2)
			}
		})
	}
	// A file that shrinks after it was opened fails too.
	of, err := localfile.Open(p, sha256Hex(content))
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	if err := os.Truncate(p, int64(len(content)/2)); err != nil {
		t.Fatal(err)
	}
	rc, _ := abortOnChange(of)()
	var aborted *etl.UploadAbortedError
	if _, err := io.ReadAll(rc); !errors.As(err, &aborted) || !strings.Contains(err.Error(), "shrank") {
		t.Fatalf("shrunk file: %v", err)
	}
}

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
	want, _ := encodeContent("A,B\n1,2\n", etl.EncodingUTF16)
	if d.HasError() || up.file == nil || up.sum != localfile.HashBytes(want) || up.file.Size != int64(len(want)) || up.file.Input.FileName != "data.csv" {
		t.Fatalf("inline content: %+v, %v", up, d)
	}
}
