package importjob

import (
	"strings"
	"testing"
)

var fourSteps = Template{ID: "t1", Name: "Actuals and Rates", Steps: []Step{
	{Name: "Load Actuals", DataType: "Values", InputID: "101"},
	{Name: "Load Rates", DataType: "Values", InputID: "102"},
	{Name: "Load", DataType: "Values", InputID: "103"},
	{Name: "Load", DataType: "Values", InputID: "104"},
}}

// TestResolveKeys: a key is an input id, else a step name that one step
// has; a key that names no step, a name several steps share and two keys
// naming one input are problems of the key, which say what to write.
func TestResolveKeys(t *testing.T) {
	steps, problems := fourSteps.ResolveKeys([]string{"Load Actuals", "102", "104"})
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	for k, want := range map[string]string{"Load Actuals": "101", "102": "102", "104": "104"} {
		if steps[k].InputID != want {
			t.Errorf("%q resolved to %q, want input %s", k, steps[k].InputID, want)
		}
	}
	for _, c := range []struct {
		keys     []string
		bad      string
		kind     KeyProblemKind
		contains []string
	}{
		{[]string{"Load Actual"}, "Load Actual", KeyUnknown, []string{`The inputs key "Load Actual" is neither a step name nor an input id of template t1`, `"Load Actuals": input id 101 (Values)`, `"Load Rates": input id 102`}},
		{[]string{"Load"}, "Load", KeyNotUnique, []string{`has 2 steps named "Load"`, "by its input id", "input id 103", "input id 104"}},
		{[]string{"102", "Load Rates"}, "Load Rates", KeyTwice, []string{`"102" and "Load Rates" both name the input 102`}},
	} {
		steps, problems := fourSteps.ResolveKeys(c.keys)
		if len(problems) != 1 || problems[0].Key != c.bad || problems[0].Kind != c.kind {
			t.Fatalf("%v: want one problem of %q, got %+v", c.keys, c.bad, problems)
		}
		if _, ok := steps[c.bad]; ok {
			t.Errorf("%v: %q resolved despite its problem", c.keys, c.bad)
		}
		for _, s := range c.contains {
			if !strings.Contains(problems[0].Detail, s) {
				t.Errorf("%v: %q does not contain %q", c.keys, problems[0].Detail, s)
			}
		}
	}
	if _, problems := (Template{ID: "t2"}).ResolveKeys([]string{"x"}); len(problems) != 1 ||
		!strings.Contains(problems[0].Detail, "no input steps") || !strings.Contains(problems[0].Detail, "inputs = {}") {
		t.Errorf("a template without steps: %+v", problems)
	}
}

// TestNotLoaded: the steps no key resolves to are named with their input
// ids; none is "".
func TestNotLoaded(t *testing.T) {
	steps, _ := fourSteps.ResolveKeys([]string{"Load Actuals", "103"})
	got := fourSteps.NotLoaded(steps)
	for _, want := range []string{`template t1 ("Actuals and Rates")`, `"Load Rates" (input id 102), "Load" (input id 104)`, "add them to inputs"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "101") || strings.Contains(got, "103") {
		t.Errorf("%q names a step that is loaded", got)
	}
	all, _ := fourSteps.ResolveKeys([]string{"101", "102", "103", "104"})
	if got := fourSteps.NotLoaded(all); got != "" {
		t.Errorf("every step loaded: %q", got)
	}
	if fourSteps.Position("103") != 2 || fourSteps.Position("999") != -1 {
		t.Error("Position")
	}
}

// TestSeveralSteps: one upload to a template of several steps is told
// which steps there are and how inputs load each, keyed by the first two
// names; a template of one step or none says nothing.
func TestSeveralSteps(t *testing.T) {
	got := fourSteps.SeveralSteps("`rows` are sent as one upload")
	for _, want := range []string{`Template t1 ("Actuals and Rates") has 4 input steps: "Load Actuals", "Load Rates", "Load", "Load".`,
		"Here `rows` are sent as one upload", `"Load Actuals" = { file = { path = "..." } }`, `"Load Rates" = { rows = [["..."]] }`} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	for _, one := range []Template{{ID: "t2", Steps: fourSteps.Steps[:1]}, {ID: "t3"}} {
		if got := one.SeveralSteps("`file` sends its data as one upload"); got != "" {
			t.Errorf("%d steps: %q", len(one.Steps), got)
		}
	}
}
