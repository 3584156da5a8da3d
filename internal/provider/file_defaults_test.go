package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
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
