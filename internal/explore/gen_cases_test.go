package explore

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestGenerate_deterministic(t *testing.T) {
	a, b := generate(42, 10), generate(42, 10)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave two sequences")
	}
	if a.Steps[0].Name != "apply" || a.Steps[len(a.Steps)-1].Name != "apply" {
		t.Errorf("want a first and last apply: %s", listSteps(a.Steps))
	}
}

func TestGenerate_covers(t *testing.T) {
	fig := newFigures()
	for seed := int64(0); seed < 200; seed++ {
		for _, s := range generate(seed, 10).Steps {
			fig.countStep(s, false)
		}
	}
	for _, names := range [][]string{editNames, opNames, faultNames} {
		for _, n := range names {
			if fig.Edits[n]+fig.Ops[n]+fig.Faults[n] == 0 {
				t.Errorf("200 sequences never drew %s", n)
			}
		}
	}
	fig.countJobs(2, 3)
	if !strings.Contains(fig.String(), "explore: 0 sequences, ") || !strings.Contains(fig.String(), "2 expected, 3 started") {
		t.Errorf("figures:\n%s", fig)
	}
}

func TestShrink(t *testing.T) {
	q := generate(3, 12)
	// fails when a replace remains, at the first replace.
	q.Steps = append(q.Steps, step{Kind: stepOp, Name: "replace", Fault: "hang"})
	fails := func(try sequence) (int, bool) {
		for i, s := range try.Steps {
			if s.Name == "replace" {
				return i, true
			}
		}
		return -1, false
	}
	got, runs := shrink(q, fails, 100)
	if len(got.Steps) != 1 || got.Steps[0].Name != "replace" || got.Steps[0].Fault != "" || runs == 0 {
		t.Errorf("shrunk to %s in %d runs, want the replace alone, without its fault", listSteps(got.Steps), runs)
	}
}

func TestKinds(t *testing.T) {
	orig := []string{"etl_import.r0[0] holds job 11, want job 12 (no new job)", "0 jobs started, 1 expected"}
	if !hasKinds([]string{"1 jobs started, 2 expected", "etl_import.r1[0] holds job 7, want job 9 (no new job)"}, kinds(orig)) {
		t.Error("the same kinds with other numbers: not recognised")
	}
	if hasKinds([]string{"etl_import.r0[0] holds job 11, not a new job of its own", "0 jobs started, 1 expected"}, kinds(orig)) {
		t.Error("a job not started taken for a swap")
	}
}

// TestScenarios checks that every scenario's last operation expects what
// the resource page promises, in the model.
func TestScenarios(t *testing.T) {
	want := map[string]int{
		"-replace": 1, "replace_triggered_by": 2, "format change": 2, "format change, the same bytes": 2,
		"encoding change, the same bytes": 2, "timed-out wait, resumed": 0, "timed-out wait, job ended in ERROR": 2,
		"taint, then a format change": 2, "taint, then a format change, the same bytes": 2, "one tainted, the other replaced: one new job, either may hold it": 1,
		"tainted, then an instance added: one new job, either may hold it": 1, "destroy of unfinished jobs": 0,
		"both tainted: resumed, maybe exchanged": 0, "-replace of a tainted instance: the taint alone": 0,
		"imported, tainted before an apply adopted it: replaced": 1,
	}
	for _, q := range scenarios() {
		m := newModel(q.Init)
		var e expect
		for n, s := range q.Steps {
			if s.Kind == stepEdit {
				m.cfg = applyEdit(m.cfg, s)
				continue
			}
			if s.Name != "destroy" {
				m.releases()
			}
			e = m.op(s)
			ids := map[string]string{}
			for i, a := range sortedKeys(e.New) {
				ids[a] = fmt.Sprint(n*10 + i)
			}
			m.learn(ids)
		}
		if len(e.New) != want[q.Name] {
			t.Errorf("%s: %d new jobs, want %d", q.Name, len(e.New), want[q.Name])
		}
		if q.Name == "destroy of unfinished jobs" && len(e.Cancelled) != 1 {
			t.Errorf("%s: %d jobs cancelled, want 1 (cancel_on_destroy)", q.Name, len(e.Cancelled))
		}
	}
}
