package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// fileDefinition is the definition of a file job.
func fileDefinition(template, sum, format, encoding string) jobDefinition {
	return jobDefinition{TemplateID: types.StringValue(template), Kind: "file", ContentSHA256: types.StringValue(sum),
		Format: types.StringValue(format), Encoding: types.StringValue(encoding)}
}

// Each part of the definition, changed alone, is the one change reported,
// and so forces a new job; an unknown part is left to the apply.
func TestChangedParts(t *testing.T) {
	base := fileDefinition("t1", "s1", "CSV", "UTF-8")
	cases := []struct {
		name string
		next jobDefinition
		want []string
	}{
		{"unchanged", base, nil},
		{"template", fileDefinition("t2", "s1", "CSV", "UTF-8"), []string{"template_id"}},
		{"bytes", fileDefinition("t1", "s2", "CSV", "UTF-8"), []string{"content_sha256"}},
		{"format", fileDefinition("t1", "s1", "PSV", "UTF-8"), []string{"file.format"}},
		{"encoding", fileDefinition("t1", "s1", "CSV", "UTF-16"), []string{"file.encoding"}},
		{"format unknown", jobDefinition{TemplateID: base.TemplateID, Kind: "file", ContentSHA256: base.ContentSHA256, Format: types.StringUnknown(), Encoding: base.Encoding}, nil},
		{"file to rows", jobDefinition{TemplateID: base.TemplateID, Kind: "rows", ContentSHA256: types.StringValue("s1"), Format: types.StringNull(), Encoding: types.StringNull()}, []string{"rows"}},
		{"file to rows, new template", jobDefinition{TemplateID: types.StringValue("t2"), Kind: "rows", ContentSHA256: types.StringValue("s9"), Format: types.StringNull(), Encoding: types.StringNull()}, []string{"rows", "template_id"}},
	}
	for _, tc := range cases {
		var got []string
		for _, p := range changedParts(base, tc.next) {
			got = append(got, p.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: changed %v, want %v", tc.name, got, tc.want)
		}
		if same := base.key() == tc.next.key(); same != (len(tc.want) == 0 && tc.next.known()) {
			t.Errorf("%s: keys equal %v, but changed parts %v", tc.name, same, tc.want)
		}
	}
}

// The definition of a model: the file's format and encoding are parts of
// it; rows have none.
func TestSpecDefinition(t *testing.T) {
	ctx := context.Background()
	null := types.StringNull()
	obj, diags := types.ObjectValueFrom(ctx, fileAttrTypes, fileModel{Path: types.StringValue("a.csv"), Content: null, ContentWO: null,
		Format: types.StringValue("TDF"), Encoding: types.StringValue("UTF-16"), Name: null, PartName: null})
	if diags.HasError() {
		t.Fatal(diags)
	}
	m := importModel{TemplateID: types.StringValue("t"), ContentSHA256: types.StringValue("s"), File: obj, Inputs: types.MapNull(types.StringType)}
	d, diags := m.spec().definition(ctx)
	if diags.HasError() || d.Kind != "file" || d.Format.ValueString() != "TDF" || d.Encoding.ValueString() != "UTF-16" {
		t.Fatalf("definition(file) = %+v, %v", d, diags)
	}
	m.File = types.ObjectNull(fileAttrTypes)
	d, _ = m.spec().definition(ctx)
	if d.Kind != "rows" || !d.Format.IsNull() || !d.Encoding.IsNull() || !d.known() {
		t.Fatalf("definition(rows) = %+v", d)
	}
	if p := changedParts(d, d); p != nil {
		t.Fatalf("a definition differs from itself: %v", p)
	}
}
