package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// An import is an event: what replaces the job is its definition
// (importSpec.definition, planJobChange), never an attribute's own plan modifier,
// so that what forces a replacement and what a resumed wait is matched on
// cannot drift apart.
func TestImportSchemaHasNoReplaceModifiers(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&importResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	check := func(name string, a schema.Attribute) {
		var descs []string
		switch a := a.(type) {
		case schema.StringAttribute:
			for _, m := range a.PlanModifiers {
				descs = append(descs, m.Description(ctx))
			}
		case schema.BoolAttribute:
			for _, m := range a.PlanModifiers {
				descs = append(descs, m.Description(ctx))
			}
		case schema.ListAttribute:
			for _, m := range a.PlanModifiers {
				descs = append(descs, m.Description(ctx))
			}
		}
		for _, d := range descs {
			if strings.Contains(strings.ToLower(d), "replace") {
				t.Errorf("%s has a plan modifier that replaces the job: %q", name, d)
			}
		}
	}
	for name, a := range resp.Schema.Attributes {
		check(name, a)
	}
	file := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	for name, a := range file.Attributes {
		check("file."+name, a)
	}
}
