package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

func TestFileDefaults(t *testing.T) {
	s, null, unk := types.StringValue, types.StringNull(), types.StringUnknown()
	cases := []struct {
		attr               string
		path, name, format types.String
		want               string
		known              bool
	}{
		{"format", s("data/gl.csv"), null, null, "CSV", true},
		{"format", s("gl.PSV"), null, null, "PSV", true},
		{"format", s("gl.tsv"), null, null, "TDF", true},
		{"format", s("gl.tdf"), null, null, "TDF", true},
		{"format", s("gl.tab"), null, null, "TDF", true},
		{"format", s("gl.txt"), null, null, "", true},
		{"format", s("gl.txt"), s("gl.csv"), null, "CSV", true},
		{"format", unk, null, null, "", false},
		{"format", null, null, null, "", true},
		{"format", null, s("x.psv"), null, "PSV", true},
		{"format", null, unk, null, "", false},
		{"name", s("/tmp/data/gl.csv"), null, null, "gl.csv", true},
		{"name", unk, null, null, "", false},
		{"name", null, null, s("CSV"), "data.csv", true},
		{"name", null, null, s("PSV"), "data.psv", true},
		{"name", null, null, s("TDF"), "data.tsv", true},
		{"name", null, null, null, "", true},
		{"name", null, null, unk, "", false},
	}
	for _, tc := range cases {
		f := withDefaults(fileModel{Path: tc.path, Name: tc.name, Format: tc.format, Content: null, Encoding: null, PartName: null})
		v := f.Format
		if tc.attr == "name" {
			v = f.Name
		}
		got, known := v.ValueString(), !v.IsUnknown()
		if got != tc.want || known != tc.known || (tc.want == "" && known && !v.IsNull()) {
			t.Errorf("%s(path %s, name %s, format %s) = %s; want %q, known %v", tc.attr, tc.path, tc.name, tc.format, v, tc.want, tc.known)
		}
	}
}

// At apply, resolveFile fills what is still null or unknown from the rule
// (a default that depended on a path unknown at plan time) and writes the
// file block back into the model.
func TestResolveFile(t *testing.T) {
	ctx := context.Background()
	s, null, unk := types.StringValue, types.StringNull(), types.StringUnknown()
	m := func(f fileModel) *importSpec {
		obj, d := types.ObjectValueFrom(ctx, fileAttrTypes, f)
		if d.HasError() {
			t.Fatal(d)
		}
		return &importSpec{File: obj}
	}
	// The path was unknown at plan: format and name were unknown.
	model := m(fileModel{Path: s("/data/gl.tsv"), Content: null, Format: unk, Encoding: s("UTF-16"), Name: unk, PartName: unk})
	f, d := resolveFile(ctx, model)
	if d.HasError() || f == nil {
		t.Fatalf("resolveFile: %v", d)
	}
	if f.Format.ValueString() != "TDF" || f.Name.ValueString() != "gl.tsv" || f.Encoding.ValueString() != "UTF-16" || f.PartName.ValueString() != "file" {
		t.Errorf("resolved %+v", f)
	}
	var back fileModel
	if d := model.File.As(ctx, &back, basetypes.ObjectAsOptions{}); d.HasError() || back != *f {
		t.Errorf("the spec holds %+v, want %+v", back, f)
	}

	// Inline content with a format: named data.<ext>.
	f, d = resolveFile(ctx, m(fileModel{Path: null, Content: s("A|B\n1|2\n"), Format: s("PSV"), Encoding: s("UTF-8"), Name: unk, PartName: s("upload")}))
	if d.HasError() || f.Name.ValueString() != "data.psv" || f.PartName.ValueString() != "upload" {
		t.Errorf("inline: %+v, %v", f, d)
	}

	// A path unknown at plan whose extension gives no format, no name: the
	// error says file.format is required (the unknown planned name is not
	// a configured one).
	f, d = resolveFile(ctx, m(fileModel{Path: s("/data/gl.data"), Content: null, Format: unk, Encoding: s("UTF-8"), Name: unk, PartName: s("file")}))
	if f != nil {
		t.Fatalf("resolved %+v without a format", f)
	}
	assertAttrError(t, d, filePath("format"), "file.format is required", "gl.data")

	// Rows: no file.
	if f, d := resolveFile(ctx, &importSpec{File: types.ObjectNull(fileAttrTypes)}); f != nil || d.HasError() {
		t.Errorf("rows: %+v, %v", f, d)
	}
}
