package provider

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// readUpload reads what one attempt of the upload would send.
func readUpload(t *testing.T, up *preparedUpload) []byte {
	t.Helper()
	rc, err := up.file.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPrepareInput(t *testing.T) {
	ctx := context.Background()
	s, null := types.StringValue, types.StringNull()
	listNull := types.ListNull(types.ListType{ElemType: types.StringType})

	rows := &keyedInput{key: "Load Rates", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1,08"))}}
	up, d := prepareInput(ctx, rows, writeOnlyData{}, types.StringNull())
	if d.HasError() {
		t.Fatal(d)
	}
	want := []byte(delimited([][]string{{"Currency", "Rate"}, {"EUR", "1,08"}}, "CSV"))
	if got := readUpload(t, up); string(got) != string(want) || up.sum != sha256Hex(want) || up.file.Size != int64(len(want)) {
		t.Errorf("rows sent as %q (sum %s, size %d), want %q", got, up.sum, up.file.Size, want)
	}
	if up.file.Input != rowsInput {
		t.Errorf("rows input %+v, want %+v", up.file.Input, rowsInput)
	}

	p, raw := writeTestFile(t, t.TempDir(), "actuals.psv", "PSV", "Windows Latin-1", testRows)
	obj, _ := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: s(p), Content: null, Format: types.StringUnknown(), Encoding: s("Windows Latin-1"), Name: types.StringUnknown(), PartName: null})
	file := &keyedInput{key: "Load Actuals", inputModel: inputModel{File: obj, Rows: listNull}}
	up, d = prepareInput(ctx, file, writeOnlyData{}, types.StringNull())
	if d.HasError() {
		t.Fatal(d)
	}
	defer up.Close()
	// Read twice: each attempt of a retried PUT sends the file from its start.
	for range 2 {
		if got := readUpload(t, up); string(got) != string(raw) {
			t.Errorf("file sent as %q, want %q", got, raw)
		}
	}
	if up.sum != sha256Hex(raw) || up.file.Input != (etl.FileInput{PartName: "file", FileFormat: flatfile.FormatPSV, FileEncoding: flatfile.EncodingLatin1, FileName: "actuals.psv"}) {
		t.Errorf("file upload %+v, sum %s", up.file.Input, up.sum)
	}
	f, _ := fileFrom(ctx, file.File)
	if f.Format.ValueString() != "PSV" || f.Name.ValueString() != "actuals.psv" || f.PartName.ValueString() != "file" {
		t.Errorf("defaults not filled into the input: %+v", f)
	}

	gone := &keyedInput{key: "Load Actuals", inputModel: inputModel{File: goldenPath(t, "A\n1\n"), Rows: listNull}}
	f, _ = fileFrom(ctx, gone.File)
	obj, _ = types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: s(f.Path.ValueString() + ".missing"), Content: null, Format: s("CSV"), Encoding: s("UTF-8"), Name: null, PartName: null})
	gone.File = obj
	if up, d := prepareInput(ctx, gone, writeOnlyData{}, types.StringNull()); up != nil || d.ErrorsCount() != 1 {
		t.Errorf("a missing file: %v, %v", up, d)
	} else if at := inInput("Load Actuals", d); !at.Errors()[0].(interface{ Path() path.Path }).Path().Equal(inputPath("Load Actuals").AtName("file").AtName("path")) {
		t.Errorf("error on %v", at)
	}
}

func TestAddCreateJobError(t *testing.T) {
	var d diag.Diagnostics
	addCreateJobError(&d, "t1", &etl.JobMaybeCreatedError{TemplateID: "t1", Err: errors.New("connection reset")}, "Apply again.")
	if d.ErrorsCount() != 1 || !strings.Contains(d[0].Detail(), "holds no data and was never submitted") || !strings.Contains(d[0].Detail(), "Apply again") ||
		strings.Contains(d[0].Detail(), "terraform import") {
		t.Errorf("lost answer: %v", d)
	}
	d = nil
	addCreateJobError(&d, "t1", errors.New("refused"), "Apply again.")
	if d.ErrorsCount() != 1 || !strings.Contains(d[0].Detail(), "No job was created") {
		t.Errorf("plain error: %v", d)
	}
}
