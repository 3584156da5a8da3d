package explore

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestGenerate_deterministic(t *testing.T) {
	a, b := generate(42, 10), generate(42, 10)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave two sequences")
	}
	if a.Steps[0].Name != "apply" || a.Steps[len(a.Steps)-1].Name != "apply" {
		t.Errorf("want a first and last apply: %s", listSteps(a.Steps)) // a destroy after a template deleted: TestGenerate_lifeChains
	}
}

func TestGenerate_covers(t *testing.T) {
	fig := newFigures()
	for seed := int64(0); seed < 200; seed++ {
		for _, s := range generate(seed, 10).Steps {
			fig.countStep(s, false)
		}
	}
	for _, names := range [][]string{editNames, opNames, faultNames, killNames} {
		for _, n := range names {
			if fig.Edits[n]+fig.Ops[n]+fig.Faults[n]+fig.Kills[n] == 0 {
				t.Errorf("200 sequences never drew %s", n)
			}
		}
	}
	fig.countJobs(2, 3)
	fig.countKill("kill-wait", 1, 2)
	if !strings.Contains(fig.String(), "kill-wait=") || !strings.Contains(fig.String(), "killed applies: 1 started (at most 2)") {
		t.Errorf("figures:\n%s", fig)
	}
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

// A sequence that fails only with the previous release's steps keeps
// them; one that fails all the same with the provider under test
// throughout is shrunk to that, its upgrade step gone.
func TestShrink_previousRelease(t *testing.T) {
	q := sequence{Seed: 1, Previous: true, Init: config{Blocks: []block{rows("r0", 0, true)}},
		Steps: []step{opApply, upgrade, opApply, opTaint, opApply}}
	for _, onlyOld := range []bool{true, false} {
		fails := func(try sequence) (int, bool) { // at the taint
			i := slices.IndexFunc(try.Steps, func(s step) bool { return s.Name == "taint" })
			return i, i >= 0 && (try.Previous || !onlyOld)
		}
		got, _ := shrink(q, fails, 100)
		if got.Previous != onlyOld || !onlyOld && slices.ContainsFunc(got.Steps, func(s step) bool { return s.Name == "upgrade" }) {
			t.Errorf("fails only with the previous release %t: shrunk to previous %t, %s", onlyOld, got.Previous, listSteps(got.Steps))
		}
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
		"imported, tainted before an apply adopted it: replaced":                     1,
		"killed while it waits, rows edited, then edited back: a new job (3 in all)": 1,
		"a replacement killed while it waits, then an apply: resumed (local state)":  0,
		"a replacement killed while it waits, then an apply: resumed (remote state)": 0,
		"one create returned, one waits, killed (remote state): both resumed":        0,
	}
	for _, q := range scenarios() {
		m := newModel(q.Init)
		m.remote = q.Remote
		next := 0
		for _, s := range q.Steps[:len(q.Steps)-1] {
			next = simulate(m, s, next)
		}
		last := q.Steps[len(q.Steps)-1]
		if last.Name != "destroy" {
			m.releases()
		}
		e := m.op(last)
		if lo, hi := e.jobs(); lo != want[q.Name] || hi != want[q.Name] {
			t.Errorf("%s: %d to %d new jobs, want %d", q.Name, lo, hi, want[q.Name])
		}
		if q.Name == "destroy of unfinished jobs" && len(e.Cancelled) != 1 {
			t.Errorf("%s: %d jobs cancelled, want 1 (cancel_on_destroy)", q.Name, len(e.Cancelled))
		}
	}
}

// Every kill the generator attaches fires in its simulation, or goes: the
// edits before it make its apply start jobs that wait.
func TestGenerate_killsFire(t *testing.T) {
	kills, fired := 0, 0
	for seed := int64(0); seed < 200; seed++ {
		q := generate(seed, 10)
		m := newModel(q.Init)
		m.remote, m.old = q.Remote, q.Previous
		next := 0
		for _, s := range q.Steps {
			if isKill(s.Fault) && m.killable() {
				kills++
				if killFires(m, s) {
					fired++
				}
			}
			next = simulate(m, s, next)
		}
	}
	if kills < 100 || fired < kills*9/10 {
		t.Errorf("%d kills in 200 sequences, %d of them fire; want 100 at least, nearly all firing", kills, fired)
	}
}

// A remote sequence has no workspace steps; an upgrade comes after the
// first apply.
func TestGenerate_backendsAndUpgrades(t *testing.T) {
	remote, upgrades := 0, 0
	for seed := int64(0); seed < 200; seed++ {
		q := generate(seed, 10)
		for i, s := range q.Steps {
			if q.Remote && strings.HasPrefix(s.Name, "workspace-") {
				t.Errorf("seed %d: %s with the http backend", seed, s)
			}
			if s.Name == "upgrade" && i != 1 {
				t.Errorf("seed %d: upgrade at step %d, want 2", seed, i+1)
			}
		}
		remote += btoi(q.Remote)
		upgrades += btoi(q.Previous)
	}
	if remote < 40 || remote > 100 || upgrades < 25 || upgrades > 80 {
		t.Errorf("200 sequences: %d remote, %d upgrades; want about 66 and 50", remote, upgrades)
	}
}

// end-job ends a job in progress, as the service would: the generator
// makes one first when none is (endJobSteps), a submitted one ends in
// ERROR or is CANCELLED, one never submitted is CANCELLED or EXPIRES.
func TestGenerate_endJob(t *testing.T) {
	ended, ran := map[string]int{}, 0
	for seed := int64(0); seed < 300; seed++ {
		q := generate(seed, 10)
		m := newModel(q.Init)
		m.remote, m.old = q.Remote, q.Previous
		next := 0
		for _, s := range q.Steps {
			if s.Name == "end-job" {
				st := m.state[m.target(s)]
				status := jobEnds[s.Value%len(jobEnds)]
				switch {
				case st == nil || !st.Hung:
					t.Errorf("seed %d: %s of a job not in progress", seed, s)
				case st.Submit && status == "EXPIRED" || !st.Submit && status == "ERROR":
					t.Errorf("seed %d: %s of a job submitted %t", seed, s, st.Submit)
				}
				ended[status]++
				ran++
			}
			next = simulate(m, s, next)
		}
	}
	if ran < 30 || len(ended) != len(jobEnds) {
		t.Errorf("300 sequences ended %d jobs: %v", ran, ended)
	}
}
