package importjob

import (
	"slices"
	"strings"
	"testing"
)

// Each part of the definition, changed alone, is the one change reported,
// and so forces a new job; an unknown part is left to the apply; the
// file's path, name and part name define nothing.
func TestChanged(t *testing.T) {
	base := fileImport("t1", "s1", "CSV", "UTF-8")
	moved := base
	moved.File = &File{Path: Known("b/a.csv"), Name: Known("x.csv"), PartName: Known("data"), Format: Known("CSV"), Encoding: Known("UTF-8")}
	unknownFormat := fileImport("t1", "s1", "CSV", "UTF-8")
	unknownFormat.File.Format = Unknown()
	rows := Import{Template: Known("t1"), Kind: KindRows, ContentSHA256: Known("s1")}
	rowsNewTemplate := Import{Template: Known("t2"), Kind: KindRows, ContentSHA256: Known("s9")}
	cases := []struct {
		name string
		next Import
		want []Part
	}{
		{"unchanged", base, nil},
		{"moved and renamed", moved, nil},
		{"template", fileImport("t2", "s1", "CSV", "UTF-8"), []Part{PartTemplate}},
		{"bytes", fileImport("t1", "s2", "CSV", "UTF-8"), []Part{PartContent}},
		{"format", fileImport("t1", "s1", "PSV", "UTF-8"), []Part{PartFormat}},
		{"encoding", fileImport("t1", "s1", "CSV", "UTF-16"), []Part{PartEncoding}},
		{"format unknown", unknownFormat, nil},
		{"file to rows", rows, []Part{PartKind}},
		{"file to rows, new template", rowsNewTemplate, []Part{PartKind, PartTemplate}},
	}
	for _, tc := range cases {
		b, n := base.Definition(), tc.next.Definition()
		if got := Changed(b, n); !slices.Equal(got, tc.want) {
			t.Errorf("%s: changed %v, want %v", tc.name, got, tc.want)
		}
		if same := b.String() == n.String(); same != (len(tc.want) == 0 && n.Known()) {
			t.Errorf("%s: keys equal %v, but changed parts %v", tc.name, same, tc.want)
		}
	}
}

// The key is the spelling the journal's entries keep (an earlier
// release's entries match only while it stays): the kind, then template,
// bytes, format and encoding, NUL-separated; rows have no format.
func TestDefinition_key(t *testing.T) {
	if got, want := fileImport("t", "s", "TDF", "UTF-16").Definition().String(), "file\x00t\x00s\x00TDF\x00UTF-16"; got != want {
		t.Errorf("file key %q, want %q", got, want)
	}
	if got, want := (Import{Template: Known("t"), Kind: KindRows, ContentSHA256: Known("s")}).Definition().String(), "rows\x00t\x00s\x00\x00"; got != want {
		t.Errorf("rows key %q, want %q", got, want)
	}
	if (Import{Template: Unknown(), Kind: KindRows, ContentSHA256: Known("s")}).Definition().Known() {
		t.Error("a definition with an unknown template is known")
	}
}

// TestDefinition_Text: each part of a definition by its Part.
func TestDefinition_Text(t *testing.T) {
	d := Definition{Kind: KindFile, Template: Known("t1"), ContentSHA256: Known("aa"), Format: Known("CSV"), Encoding: Known("UTF-8")}
	for p, want := range map[Part]string{PartKind: "file", PartTemplate: "t1", PartContent: "aa", PartFormat: "CSV", PartEncoding: "UTF-8"} {
		if got := d.Text(p); got != want {
			t.Errorf("Text(%d) = %q, want %q", p, got, want)
		}
	}
}

// content_sha256 of inputs lives in users' state: its construction is
// pinned by the recipe spelled out here and a golden.
func TestInputsHash(t *testing.T) {
	a := Input{InputID: "640101874288689161", Format: "CSV", Encoding: "UTF-8", SHA256: sum("a")}
	b := Input{InputID: "640101874288689162", Format: "TDF", Encoding: "UTF-16", SHA256: sum("b")}
	got := InputsHash([]Input{b, a})
	if want := sum(a.InputID + "\nCSV\nUTF-8\n" + a.SHA256 + "\n" + b.InputID + "\nTDF\nUTF-16\n" + b.SHA256 + "\n"); got != want {
		t.Errorf("InputsHash = %s, want %s", got, want)
	}
	if got != InputsHash([]Input{a, b}) {
		t.Error("the hash depends on the order of the inputs")
	}
	// A failure here is a breaking change (every job with inputs would be
	// replaced), not a golden to update.
	const golden = "ae753029022e2593653b92decd800d824a31b644f73cd7008e623fcc03f70fd8"
	if got != golden {
		t.Errorf("InputsHash = %s, the golden is %s", got, golden)
	}
	if InputsHash(nil) != sum("") {
		t.Error("no inputs: want the SHA-256 of nothing")
	}
	for _, change := range []func(*Input){
		func(e *Input) { e.InputID = "640101874288689163" },
		func(e *Input) { e.Format = "PSV" },
		func(e *Input) { e.Encoding = "Windows Latin-1" },
		func(e *Input) { e.SHA256 = sum("c") },
	} {
		c := b
		change(&c)
		if InputsHash([]Input{a, c}) == got {
			t.Errorf("changing %+v to %+v left the hash as it was", b, c)
		}
	}
	if named := (Input{InputID: a.InputID, Format: "CSV", Encoding: "UTF-8", SHA256: a.SHA256, StepName: "Load", Position: 3}); InputsHash([]Input{named}) != InputsHash([]Input{a}) {
		t.Error("the hash covers the step's name or position")
	}
}

// TestSameStepsNewIDs: the prior hash is matched with the prior input ids
// put back for the same steps (name and position); any other difference
// (bytes, format, a step renamed or moved, an input more) is a change.
func TestSameStepsNewIDs(t *testing.T) {
	prior := []Input{
		{InputID: "640101874288689161", Format: "CSV", Encoding: "UTF-8", SHA256: sum("a"), StepName: "Load Actuals", Position: 0},
		{InputID: "640101874288689162", Format: "TDF", Encoding: "UTF-16", SHA256: sum("b"), StepName: "Load Rates", Position: 1},
	}
	priorSum := InputsHash(prior)
	renumbered := func(f func(e []Input)) []Input {
		now := []Input{prior[0], prior[1]}
		now[0].InputID, now[1].InputID = "740101874288689161", "740101874288689162"
		if f != nil {
			f(now)
		}
		return now
	}
	if !SameStepsNewIDs(prior, renumbered(nil), priorSum) {
		t.Error("new input ids for the same steps and data: want the same job")
	}
	if InputsHash(renumbered(nil)) == priorSum {
		t.Fatal("the hash does not cover the input ids: this test proves nothing")
	}
	for name, f := range map[string]func(e []Input){
		"other bytes":     func(e []Input) { e[0].SHA256 = sum("c") },
		"other format":    func(e []Input) { e[1].Format = "CSV" },
		"step renamed":    func(e []Input) { e[0].StepName = "Load GL" },
		"steps reordered": func(e []Input) { e[0].Position, e[1].Position = 1, 0 },
	} {
		if SameStepsNewIDs(prior, renumbered(f), priorSum) {
			t.Errorf("%s: taken for the same data", name)
		}
	}
	if SameStepsNewIDs(nil, renumbered(nil), priorSum) || SameStepsNewIDs(prior[:1], renumbered(nil), priorSum) {
		t.Error("without the prior steps, or with another count of inputs: taken for the same data")
	}
}

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

// TestDescribeCounts: data rows and bytes, singular and plural, leaving
// out what is not known.
func TestDescribeCounts(t *testing.T) {
	for _, tc := range []struct {
		rows, size int64
		want       string
	}{
		{3, 120, "3 data rows, 120 bytes"},
		{1, 1, "1 data row, 1 bytes"},
		{0, 9, "0 data rows, 9 bytes"},
		{-1, 9, "9 bytes"},
		{2, -1, "2 data rows"},
		{-1, -1, ""},
	} {
		if got := DescribeCounts(tc.rows, tc.size); got != tc.want {
			t.Errorf("DescribeCounts(%d, %d) = %q, want %q", tc.rows, tc.size, got, tc.want)
		}
	}
}

// TestCountInputs: one input, and any other number.
func TestCountInputs(t *testing.T) {
	for n, want := range map[int]string{0: "0 inputs", 1: "1 input", 2: "2 inputs", 12: "12 inputs"} {
		if got := CountInputs(n); got != want {
			t.Errorf("CountInputs(%d) = %q, want %q", n, got, want)
		}
	}
}
