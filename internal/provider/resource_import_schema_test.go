package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
)

// An import is an event: exactly the attributes that define what the
// service imports (the template, how the bytes are read) replace the job
// when they change; the bytes themselves (content_sha256) and a switch
// between file and rows are ModifyPlan's (import_changes_test.go). The
// others (where the file is, its name, submit, how to wait, what to do on
// destroy, what the service reports) never do.
func TestImportSchemaReplaces(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	isReplace := func(m planmodifier.Describer) bool {
		return m.Description(ctx) == replaceDescription || m.Description(ctx) == replaceKnownDescription
	}
	replaces := func(a schema.Attribute) bool {
		switch a := a.(type) {
		case schema.StringAttribute:
			return slices.ContainsFunc(a.PlanModifiers, func(m planmodifier.String) bool { return isReplace(m) })
		case schema.BoolAttribute:
			return slices.ContainsFunc(a.PlanModifiers, func(m planmodifier.Bool) bool { return isReplace(m) })
		case schema.ListAttribute:
			return slices.ContainsFunc(a.PlanModifiers, func(m planmodifier.List) bool { return isReplace(m) })
		}
		return false
	}
	var got []string
	for name, a := range resp.Schema.Attributes {
		if replaces(a) {
			got = append(got, name)
		}
	}
	file, ok := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	if !ok {
		t.Fatal("file is not a nested attribute")
	}
	for name, a := range file.Attributes {
		if replaces(a) {
			got = append(got, "file."+name)
		}
	}
	slices.Sort(got)
	want := []string{"file.encoding", "file.format", "template_id"}
	if !slices.Equal(got, want) {
		t.Errorf("attributes that replace the job: %v, want %v", got, want)
	}
	// The default is planned before the replacement is decided.
	mods := file.Attributes["format"].(schema.StringAttribute).PlanModifiers
	if len(mods) != 2 || isReplace(mods[0]) || !isReplace(mods[1]) {
		t.Errorf("file.format: the default must come before the replacement: %v", mods)
	}
}
