package importjob

import (
	"testing"
)

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
