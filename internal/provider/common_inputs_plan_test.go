package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

var twoStep = &etl.Template{ID: "t1", Name: "Actuals and Rates", Steps: []etl.Step{
	{StepName: "Load Actuals", DataType: "Values", InputID: "101"},
	{StepName: "Load Rates", DataType: "Values", InputID: "102"},
	{StepName: "Load", DataType: "Values", InputID: "103"},
	{StepName: "Load", DataType: "Values", InputID: "104"},
}}

func TestResolveInputKeys(t *testing.T) {
	steps, d := resolveInputKeys(twoStep, []string{"Load Actuals", "102", "104"})
	if d.HasError() {
		t.Fatal(d)
	}
	for k, want := range map[string]string{"Load Actuals": "101", "102": "102", "104": "104"} {
		if steps[k].InputID != want {
			t.Errorf("%q resolved to %q, want input %s", k, steps[k].InputID, want)
		}
	}
	for _, c := range []struct {
		keys     []string
		bad      string
		contains []string
	}{
		{[]string{"Load Actual"}, "Load Actual", []string{"Unknown input step", `"Load Actual" is neither a step name nor an input id of template t1`, `"Load Actuals": input id 101 (Values)`, `"Load Rates": input id 102`}},
		{[]string{"Load"}, "Load", []string{"Step name not unique", `has 2 steps named "Load"`, "by its input id", "input id 103", "input id 104"}},
		{[]string{"102", "Load Rates"}, "Load Rates", []string{"Input given twice", `"102" and "Load Rates" both name the input 102`}},
	} {
		_, d := resolveInputKeys(twoStep, c.keys)
		if d.ErrorsCount() != 1 {
			t.Fatalf("%v: want one error, got %v", c.keys, d)
		}
		e := d.Errors()[0].(diag.DiagnosticWithPath)
		if !e.Path().Equal(inputPath(c.bad)) {
			t.Errorf("%v: error on %s, want %s", c.keys, e.Path(), inputPath(c.bad))
		}
		for _, s := range c.contains {
			if !strings.Contains(e.Summary()+": "+e.Detail(), s) {
				t.Errorf("%v: %q does not contain %q", c.keys, e.Summary()+": "+e.Detail(), s)
			}
		}
	}
	if got := describeSteps(&etl.Template{}); !strings.Contains(got, "no input steps") || !strings.Contains(got, "inputs = {}") {
		t.Errorf("describeSteps of no steps: %q", got)
	}
}
