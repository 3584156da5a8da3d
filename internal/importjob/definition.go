package importjob

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Value is one value of an import as a plan knows it: known (a null value
// is known, and "") or not yet.
type Value struct {
	Text  string
	Known bool
}

// Known is the known value s; Unknown a value known only at apply.
func Known(s string) Value { return Value{Text: s, Known: true} }

// Unknown is a value known only at apply.
func Unknown() Value { return Value{} }

// The kinds of data an import sends: the attribute that holds it.
const (
	KindFile   = "file"
	KindRows   = "rows"
	KindInputs = "inputs"
)

// Import is what an etl_import (or the action) sends, as the rules read
// it: everything that could tell two imports apart, whether or not it
// defines the job.
type Import struct {
	Template Value
	// Kind is KindFile, KindRows (rows and rows_wo alike) or KindInputs.
	Kind string
	// ContentSHA256 is the hash of exactly the bytes sent; with inputs it
	// covers each input's bytes, format and encoding, and which inputs are
	// loaded (not their paths, names, or whether keyed by step name or
	// input id).
	ContentSHA256 Value
	// File is the file sent, with KindFile.
	File *File
	// WriteOnly: the data is rows_wo or file.content_wo, kept out of the
	// state, rather than rows or file.content.
	WriteOnly bool
}

// File is the file of an import: where its bytes come from and how it is
// named, and how the service reads it.
type File struct {
	Path, Name, PartName Value
	// Inline: the bytes are file.content (or content_wo), not a path's.
	Inline           bool
	Format, Encoding Value
}

// Definition is what defines the job an import starts: what the service
// would import. A change of any part starts a new job; everything else
// about an import is recorded in place.
type Definition struct {
	Kind                                      string
	Template, ContentSHA256, Format, Encoding Value
}

// Definition is i's: the template, the kind, the bytes, and for a file
// the format and encoding it is read with. The file's path, its name and
// part name, inline or not, and write-only or not do not define the job.
func (i Import) Definition() Definition {
	d := Definition{Kind: i.Kind, Template: i.Template, ContentSHA256: i.ContentSHA256, Format: Known(""), Encoding: Known("")}
	if i.File != nil {
		d.Format, d.Encoding = i.File.Format, i.File.Encoding
	}
	return d
}

// Part is one part of a Definition.
type Part int

// The parts of a Definition, in the order they are compared.
const (
	PartKind Part = iota
	PartTemplate
	PartContent
	PartFormat
	PartEncoding
)

// values lists the parts compared one by one (the kind apart).
func (d Definition) values() []Value {
	return []Value{d.Template, d.ContentSHA256, d.Format, d.Encoding}
}

// Text is part p of d as text: the kind, or the value of another part.
func (d Definition) Text(p Part) string {
	if p == PartKind {
		return d.Kind
	}
	return d.values()[p-1].Text
}

// Known reports whether every part is known.
func (d Definition) Known() bool {
	for _, v := range d.values() {
		if !v.Known {
			return false
		}
	}
	return true
}

// String is the definition as one string: equal strings define the same
// job. Only meaningful when Known. (Its spelling is kept in the journal's
// keys: an earlier release's entries match only while it stays.)
func (d Definition) String() string {
	s := []string{d.Kind}
	for _, v := range d.values() {
		s = append(s, v.Text)
	}
	return strings.Join(s, "\x00")
}

// Changed lists the parts whose values differ between prior and next
// where both are known, the kind first when the data moved to another
// attribute (then only the template besides: the kind's change says the
// rest). Unknown parts are compared at apply (Changed again, then known).
func Changed(prior, next Definition) []Part {
	var out []Part
	if prior.Kind != next.Kind {
		out = append(out, PartKind)
	}
	pv, nv := prior.values(), next.values()
	for i := range nv {
		p := Part(i + 1)
		if !pv[i].Known || !nv[i].Known || pv[i].Text == nv[i].Text {
			continue
		}
		if prior.Kind != next.Kind && p != PartTemplate {
			continue
		}
		out = append(out, p)
	}
	return out
}

// Input is what one input of a job with inputs contributes to its
// content_sha256 (its input id, format, encoding and the SHA-256 of its
// bytes), with the step it loads: its name and position in the template's
// steps, which the hash does not cover (SameStepsNewIDs). The provider
// keeps a job's inputs in its private state as this JSON.
type Input struct {
	InputID  string `json:"input_id"`
	Format   string `json:"format"`
	Encoding string `json:"encoding"`
	SHA256   string `json:"sha256"`
	StepName string `json:"step_name"`
	Position int    `json:"position"`
}

// InputsHash is content_sha256 of a job with inputs: the SHA-256 of each
// input's id, format, encoding and SHA-256, a line each, the inputs in the
// order of their ids (the several-inputs guide's recipe). It covers which
// inputs are loaded and what each sends, not the keys nor the steps' names.
func InputsHash(inputs []Input) string {
	sorted := slices.SortedFunc(slices.Values(inputs), func(a, b Input) int { return strings.Compare(a.InputID, b.InputID) })
	h := sha256.New()
	for _, e := range sorted {
		fmt.Fprintf(h, "%s\n%s\n%s\n%s\n", e.InputID, e.Format, e.Encoding, e.SHA256)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SameStepsNewIDs reports whether a job's prior content_sha256 (priorSum,
// of the inputs prior it was loaded with) is the hash of inputs now with
// only the input ids changed to the prior ones: every input loads a step
// of the same name, at the same position, with the same bytes, format and
// encoding, and only the template's input ids changed on the service. The
// service then imports the same way, and no new job starts
// (Change.NewInputIDsOnly).
func SameStepsNewIDs(prior, now []Input, priorSum string) bool {
	if prior == nil || len(prior) != len(now) {
		return false
	}
	old := make([]Input, len(now))
	for i, e := range now {
		j := slices.IndexFunc(prior, func(p Input) bool { return p.StepName == e.StepName && p.Position == e.Position })
		if j < 0 {
			return false
		}
		e.InputID = prior[j].InputID
		old[i] = e
	}
	return InputsHash(old) == priorSum
}

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

// How the counts of the data a job sends are told (the action's progress
// says them as it sends): never a cell of it.

// DescribeCounts says how many data rows and bytes data holds, such as
// "3 data rows, 120 bytes", leaving out a count below zero (not known);
// "" when neither is known.
func DescribeCounts(rows, size int64) string {
	var parts []string
	if rows >= 0 {
		parts = append(parts, plural(rows, "data row", "data rows"))
	}
	if size >= 0 {
		parts = append(parts, fmt.Sprintf("%d bytes", size))
	}
	return strings.Join(parts, ", ")
}

// CountInputs says how many inputs there are: "1 input", "2 inputs".
func CountInputs(n int) string { return plural(int64(n), "input", "inputs") }

// plural is n with one after it when n is 1, else with many.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
