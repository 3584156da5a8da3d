package importjob

import (
	"fmt"
	"slices"
	"strings"
)

// Template is a template as the rules of inputs and adoption read it: its
// id and name, its model, and its input steps in order.
type Template struct {
	ID, Name           string
	ModelID, ModelName string
	Steps              []Step
}

// Step is one input step of a template: its name, the id of the job input
// it loads, and the kind of data it reads.
type Step struct {
	Name, InputID, DataType string
}

// KeyProblemKind is what is wrong with a key of inputs.
type KeyProblemKind int

// The problems of a key of inputs.
const (
	// KeyUnknown: the key is neither a step name nor an input id.
	KeyUnknown KeyProblemKind = iota
	// KeyNotUnique: the key is the name of several steps.
	KeyNotUnique
	// KeyTwice: the key names an input another key names too.
	KeyTwice
)

// KeyProblem is a key of inputs that names no one input of the template,
// with what to tell the user.
type KeyProblem struct {
	Key    string
	Kind   KeyProblemKind
	Detail string
}

// ResolveKeys maps each key of inputs to the template's step it names: the
// step with that input id, else the one step with that name. A key that
// names no step, a name that several steps share, and two keys naming the
// same input are problems of the key, which resolves to nothing.
func (t Template) ResolveKeys(keys []string) (map[string]Step, []KeyProblem) {
	byName := map[string][]Step{}
	for _, s := range t.Steps {
		byName[s.Name] = append(byName[s.Name], s)
	}
	out := make(map[string]Step, len(keys))
	var problems []KeyProblem
	claimed := map[string]string{} // input id -> key
	for _, k := range keys {
		i := slices.IndexFunc(t.Steps, func(s Step) bool { return s.InputID == k })
		var s Step
		switch named := byName[k]; {
		case i >= 0:
			s = t.Steps[i]
		case len(named) == 1:
			s = named[0]
		case len(named) > 1:
			problems = append(problems, KeyProblem{Key: k, Kind: KeyNotUnique, Detail: fmt.Sprintf("Template %s (%q) has %d steps named %q, "+
				"so that name cannot say which input to load: key each of them by its input id instead. %s", t.ID, t.Name, len(named), k, t.describeSteps())})
			continue
		default:
			problems = append(problems, KeyProblem{Key: k, Kind: KeyUnknown, Detail: fmt.Sprintf("The inputs key %q is neither a step name nor an input id of template %s (%q). %s",
				k, t.ID, t.Name, t.describeSteps())})
			continue
		}
		if other, dup := claimed[s.InputID]; dup {
			problems = append(problems, KeyProblem{Key: k, Kind: KeyTwice, Detail: fmt.Sprintf("The inputs keys %q and %q both name the input %s (step %q) of template %s: keep one of them.",
				other, k, s.InputID, s.Name, t.ID)})
			continue
		}
		claimed[s.InputID] = k
		out[k] = s
	}
	return out, problems
}

// describeSteps lists a template's input steps with their input ids.
func (t Template) describeSteps() string {
	if len(t.Steps) == 0 {
		return "The template has no input steps: run it with inputs = {} (the job is created, then submitted)."
	}
	var b strings.Builder
	b.WriteString("Its input steps are (key each input by step name or input id):")
	for _, s := range t.Steps {
		fmt.Fprintf(&b, "\n  - %q: input id %s (%s)", s.Name, s.InputID, s.DataType)
	}
	return b.String()
}

// NotLoaded says which of the template's steps no input loads (steps: the
// keys resolved, ResolveKeys), and why that is a risk; "" when every step
// is loaded.
func (t Template) NotLoaded(steps map[string]Step) string {
	loaded := map[string]bool{}
	for _, s := range steps {
		loaded[s.InputID] = true
	}
	var missing []string
	for _, s := range t.Steps {
		if !loaded[s.InputID] {
			missing = append(missing, fmt.Sprintf("%q (input id %s)", s.Name, s.InputID))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("No input of inputs loads these steps of template %s (%q): %s. What the service does with a job submitted with an input missing is not documented "+
		"(it may fail, or import part of the data): add them to inputs.", t.ID, t.Name, strings.Join(missing, ", "))
}

// SeveralSteps says, of one upload (how: what sends it, such as "`file`
// sends its data as one upload") to t, that t has several input steps and
// which one the service loads it into is not documented, with inputs
// keyed by t's first two step names as the way to load each; "" when t
// has fewer than two steps.
func (t Template) SeveralSteps(how string) string {
	if len(t.Steps) < 2 {
		return ""
	}
	names := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		names[i] = fmt.Sprintf("%q", s.Name)
	}
	return fmt.Sprintf("Template %s (%q) has %d input steps: %s. Here %s, and which step the service loads one upload into is not documented. "+
		"To load each step, use inputs instead, keyed by step name, such as:\n\n  inputs = {\n    %s = { file = { path = \"...\" } }\n    %s = { rows = [[\"...\"]] }\n  }",
		t.ID, t.Name, len(t.Steps), strings.Join(names, ", "), how, names[0], names[1])
}

// Position is the position of the step with inputID in the template's
// steps; -1 when none.
func (t Template) Position(inputID string) int {
	return slices.IndexFunc(t.Steps, func(s Step) bool { return s.InputID == inputID })
}
