package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// The plan's values read into importjob's import: a file's format and
// encoding are parts of its definition (rows have none); an unknown value,
// or a file unknown whole, is unknown there.
func TestImportOf(t *testing.T) {
	ctx := context.Background()
	null := types.StringNull()
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: types.StringValue("a.csv"), Content: null, ContentWO: null,
		Format: types.StringValue("TDF"), Encoding: types.StringUnknown(), Name: null, PartName: null})
	if diags.HasError() {
		t.Fatal(diags)
	}
	m := importModel{TemplateID: types.StringValue("t"), ContentSHA256: types.StringValue("s"), File: obj, Inputs: types.MapNull(types.StringType)}
	imp, diags := importOf(ctx, m.spec())
	if diags.HasError() || imp.Kind != importjob.KindFile || imp.File.Format != importjob.Known("TDF") || imp.File.Encoding.Known || imp.File.Path.Text != "a.csv" {
		t.Fatalf("importOf(file) = %+v %+v, %v", imp, imp.File, diags)
	}
	m.File = types.ObjectUnknown(fileAttrTypes)
	if imp, _ = importOf(ctx, m.spec()); imp.Definition().Known() {
		t.Fatalf("a file unknown whole gives a known definition: %+v", imp.Definition())
	}
	m.File = types.ObjectNull(fileAttrTypes)
	d, _ := m.spec().definition(ctx)
	if d.Kind != importjob.KindRows || d.Format != importjob.Known("") || !d.Known() {
		t.Fatalf("definition(rows) = %+v", d)
	}
	m.ContentSHA256 = types.StringUnknown()
	if d, _ = m.spec().definition(ctx); d.Known() {
		t.Fatalf("definition with unknown bytes = %+v, want unknown", d)
	}
}

// Each part names its attribute; the kind, the attribute that now holds
// the data.
func TestPartPath(t *testing.T) {
	for part, want := range map[importjob.Part]path.Path{
		importjob.PartKind: path.Root("inputs"), importjob.PartTemplate: path.Root("template_id"), importjob.PartContent: path.Root("content_sha256"),
		importjob.PartFormat: filePath("format"), importjob.PartEncoding: filePath("encoding"),
	} {
		if got := partPath(part, importjob.KindInputs); !got.Equal(want) {
			t.Errorf("partPath(%d) = %s, want %s", part, got, want)
		}
	}
}
