package provider

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// The action takes what the resource takes to define a job, and its file
// block is the resource's: the same descriptions and validators, less the
// write-only content_wo.
func TestImportActionSchema(t *testing.T) {
	ctx := context.Background()
	var resp action.SchemaResponse
	(&importAction{}).Schema(ctx, action.SchemaRequest{}, &resp)
	if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatalf("schema: %v", d)
	}
	got := slices.Sorted(maps.Keys(resp.Schema.Attributes))
	want := []string{"file", "rows", "submit", "template_id", "timeouts", "wait_for_completion"}
	if !slices.Equal(got, want) {
		t.Errorf("attributes %v, want %v", got, want)
	}

	file := resp.Schema.Attributes["file"].(schema.SingleNestedAttribute)
	res := importSchema(t).Attributes["file"].(rschema.SingleNestedAttribute)
	wantFile := slices.DeleteFunc(slices.Sorted(maps.Keys(res.Attributes)), func(s string) bool { return s == "content_wo" })
	if got := slices.Sorted(maps.Keys(file.Attributes)); !slices.Equal(got, wantFile) {
		t.Errorf("file attributes %v, want the resource's less content_wo: %v", got, wantFile)
	}
	for name, a := range file.Attributes {
		s := a.(schema.StringAttribute)
		r := res.Attributes[name].(rschema.StringAttribute)
		if !s.Optional || s.MarkdownDescription != r.MarkdownDescription || len(s.Validators) != len(r.Validators) {
			t.Errorf("file.%s: optional %v, %d validators; want optional and the resource's description and %d validators", name, s.Optional, len(s.Validators), len(r.Validators))
		}
	}
	// path's exactly-one rule names only what the action has.
	var rules []string
	for _, v := range file.Attributes["path"].(schema.StringAttribute).Validators {
		rules = append(rules, v.Description(ctx))
	}
	if s := strings.Join(rules, " "); !strings.Contains(s, "[content]") || strings.Contains(s, "content_wo") {
		t.Errorf("file.path validators %q: want the exactly-one rule of path and content alone", s)
	}
	if rows := resp.Schema.Attributes["rows"].(schema.ListAttribute); len(rows.Validators) != 1 {
		t.Errorf("rows: %d validators, want the resource's rows validator", len(rows.Validators))
	}
}
