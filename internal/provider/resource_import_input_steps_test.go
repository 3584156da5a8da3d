package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestSameStepsNewIDs: the prior hash is matched with the prior input ids
// put back for the same steps (name and position); any other difference
// (bytes, format, a step renamed or moved, an input more) is a change.
func TestSameStepsNewIDs(t *testing.T) {
	prior := []inputEntry{
		{InputID: "640101874288689161", Format: "CSV", Encoding: "UTF-8", Sum: sha256Hex([]byte("a")), StepName: "Load Actuals", Position: 0},
		{InputID: "640101874288689162", Format: "TDF", Encoding: "UTF-16", Sum: sha256Hex([]byte("b")), StepName: "Load Rates", Position: 1},
	}
	priorSum := inputsHash(prior)
	renumbered := func(f func(e []inputEntry)) []inputEntry {
		now := []inputEntry{prior[0], prior[1]}
		now[0].InputID, now[1].InputID = "740101874288689161", "740101874288689162"
		if f != nil {
			f(now)
		}
		return now
	}
	if !sameStepsNewIDs(prior, renumbered(nil), priorSum) {
		t.Error("new input ids for the same steps and data: want the same job")
	}
	if inputsHash(renumbered(nil)) == priorSum {
		t.Fatal("the hash does not cover the input ids: this test proves nothing")
	}
	for name, f := range map[string]func(e []inputEntry){
		"other bytes":     func(e []inputEntry) { e[0].Sum = sha256Hex([]byte("c")) },
		"other format":    func(e []inputEntry) { e[1].Format = "CSV" },
		"step renamed":    func(e []inputEntry) { e[0].StepName = "Load GL" },
		"steps reordered": func(e []inputEntry) { e[0].Position, e[1].Position = 1, 0 },
	} {
		if sameStepsNewIDs(prior, renumbered(f), priorSum) {
			t.Errorf("%s: taken for the same data", name)
		}
	}
	if sameStepsNewIDs(nil, renumbered(nil), priorSum) || sameStepsNewIDs(prior[:1], renumbered(nil), priorSum) {
		t.Error("without the prior steps, or with another count of inputs: taken for the same data")
	}
}

// TestInputStepsPrivateState: what saveInputSteps keeps, inputStepsFrom
// reads back; nothing is kept for no entries.
func TestInputStepsPrivateState(t *testing.T) {
	ctx := context.Background()
	p := fakePrivate{}
	var d diag.Diagnostics
	saveInputSteps(ctx, nil, p, &d)
	if inputStepsFrom(ctx, p) != nil || len(p) != 0 {
		t.Fatalf("no entries: kept %v", p)
	}
	e := []inputEntry{{InputID: "1", Format: "CSV", Encoding: "UTF-8", Sum: "s", StepName: "Load", Position: 3}}
	saveInputSteps(ctx, e, p, &d)
	if got := inputStepsFrom(ctx, p); d.HasError() || len(got) != 1 || got[0] != e[0] {
		t.Fatalf("read back %+v, %v", got, d)
	}
}
