package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestInputFactsSchema: each of the resource's inputs has columns,
// row_count and size_bytes, computed; the action's inputs keep only file
// and rows.
func TestInputFactsSchema(t *testing.T) {
	res, _ := inputsAttribute().(rschema.MapNestedAttribute)
	for _, name := range []string{"columns", "row_count", "size_bytes"} {
		if a, ok := res.NestedObject.Attributes[name]; !ok || !a.IsComputed() || a.IsOptional() {
			t.Errorf("resource inputs.%s: %v, want computed only", name, a)
		}
	}
	act, _ := actionInputsAttribute().(schema.MapNestedAttribute)
	var names []string
	for name := range act.NestedObject.Attributes {
		names = append(names, name)
	}
	if slices.Sort(names); !slices.Equal(names, []string{"file", "rows"}) {
		t.Errorf("action inputs attributes %v, want file and rows", names)
	}
}

// TestInputFactsNow: at apply, a rows input is counted as its CSV file,
// and unknown rows stay unknown.
func TestInputFactsNow(t *testing.T) {
	ctx := context.Background()
	rows := rowsValue(t, cells("Currency", "Rate"), cells("EUR", "1.08"))
	in := keyedInput{key: "Load Rates", inputModel: inputModel{File: types.ObjectNull(fileAttrTypes), Rows: rows}}
	got := inputFactsNow(ctx, in, writeOnlyData{})
	if got.RowCount.ValueInt64() != 1 || got.SizeBytes.ValueInt64() != int64(len("Currency,Rate\nEUR,1.08\n")) {
		t.Errorf("facts %+v, want 1 row and the CSV file's size", got)
	}
	in.Rows = types.ListUnknown(rows.ElementType(ctx))
	if got := inputFactsNow(ctx, in, writeOnlyData{}); !got.RowCount.IsUnknown() {
		t.Errorf("unknown rows: %+v, want unknown", got)
	}
}
