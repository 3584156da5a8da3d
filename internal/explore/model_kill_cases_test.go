package explore

import (
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The model of killed applies against the guide ("The journal of started
// jobs"), one case each: how many jobs the operation after a kill must
// start. Kills are simulated as the generator does (fakeKill: Terraform
// with a local state file keeps the creates that returned; a remote state
// nothing of the killed apply), or observed as given.

// rows is a block of rows of data set data (0: A, 1: B), submitted,
// waited for as wait says.
func rows(name string, data int, wait bool) block {
	return block{Name: name, Count: 1, Kind: kindRows, Data: data, Submit: true, Wait: wait}
}

var (
	killWait = step{Kind: stepOp, Name: "apply", Fault: "kill-wait"}
	toB      = step{Kind: stepEdit, Name: "bytes", Value: 1}
	toA      = step{Kind: stepEdit, Name: "bytes", Value: 0}
	upgrade  = step{Kind: stepOp, Name: "upgrade"}
	keepOn   = step{Kind: stepEdit, Name: "keep", Value: 1}
	keepOff  = step{Kind: stepEdit, Name: "keep", Value: 0}
)

// killModel runs steps in a model of blocks, kills simulated, and returns
// it with the expectation of the last operation (not a kill).
func killModel(t *testing.T, remote bool, blocks []block, steps ...step) (*model, expect) {
	t.Helper()
	return killModelOn(t, false, remote, blocks, steps...)
}

// killModelOn is killModel on a CLI that replaces an instance whose
// replace_triggered_by resource it creates (createTriggers: OpenTofu) or not.
func killModelOn(t *testing.T, createTriggers, remote bool, blocks []block, steps ...step) (*model, expect) {
	t.Helper()
	m := newModel(config{Blocks: blocks})
	m.remote, m.createTriggers = remote, createTriggers
	m.old = slices.ContainsFunc(steps, func(s step) bool { return s.Name == "upgrade" })
	var e expect
	next := 0
	for _, s := range steps {
		if s.Kind == stepEdit || isKill(s.Fault) || s.Name == "upgrade" {
			next = simulate(m, s, next)
			continue
		}
		if releasesFirst(s.Name) {
			m.releases()
		}
		e = m.op(s)
		ids, _ := assign(m, e, next)
		next += len(ids)
		m.learn(ids)
	}
	return m, e
}

// wantJobs fails unless e expects exactly n new jobs.
func wantJobs(t *testing.T, e expect, n int) {
	t.Helper()
	if lo, hi := e.jobs(); lo != n || hi != n {
		t.Errorf("%d to %d new jobs, want %d (swap groups %+v)", lo, hi, n, e.Swap)
	}
}

func TestModelKill(t *testing.T) {
	a := []block{rows("r0", 0, true)}
	cases := []struct {
		name   string
		remote bool
		blocks []block
		steps  []step
		want   int
	}{
		{"a killed new object: resumed", false, a, []step{killWait, opApply}, 0},
		{"a killed new object: resumed (remote)", true, a, []step{killWait, opApply}, 0},
		{"killed, edited, applied: a new job", false, a, []step{killWait, toB, opApply}, 1},
		{"killed, edited, applied, edited back: a new job (3 in all)", false, a, []step{killWait, toB, opApply, toA, opApply}, 1},
		{"a killed replacement: resumed (local: the state got the destroy)", false, a, []step{opApply, toB, killWait, opApply}, 0},
		{"a killed replacement: resumed (remote: the state did not)", true, a, []step{opApply, toB, killWait, opApply}, 0},
		{"a killed replacement, edited back: nothing to do (remote)", true, a, []step{opApply, toB, killWait, toA, opApply}, 0},
		{"one returned, one waits, killed (remote): both resumed", true, []block{rows("r0", 0, false), rows("r1", 1, true)},
			[]step{killWait, opApply}, 0},
		{"one returned, one waits, killed (local): the waiting one resumed", false, []block{rows("r0", 0, false), rows("r1", 1, true)},
			[]step{killWait, opApply}, 0},
		{"removed, then added back: resumed", false, a,
			[]step{killWait, {Kind: stepEdit, Name: "count", Value: 0}, opApply, {Kind: stepEdit, Name: "count", Value: 1}, opApply}, 0},
		{"killed, edited, applied, destroyed, edited back: the suspect's destroy drops the entry", false, a,
			[]step{killWait, toB, opApply, {Kind: stepOp, Name: "destroy"}, toA, opApply}, 1},
		{"killed, edited, applied, tainted, edited back: the suspect's replacement drops the entry", false, a,
			[]step{killWait, toB, opApply, opTaint, toA, opApply}, 1},
		{"the previous release killed (remote), upgraded: the create that returned lost, the waiting one resumed", true,
			[]block{rows("r0", 0, false), rows("r1", 1, true)}, []step{killWait, upgrade, opApply}, 1},
		{"the previous release killed (local), upgraded: resumed", false, a, []step{killWait, upgrade, opApply}, 0},
		{"killed, then plan-apply: resumed", false, a, []step{killWait, {Kind: stepOp, Name: "plan-apply"}}, 0},
		{"killed, refreshed, then applied: resumed", false, a, []step{killWait, {Kind: stepOp, Name: "refresh"}, opApply}, 0},
		{"Ctrl-C: the tainted job resumed", false, a, []step{{Kind: stepOp, Name: "apply", Fault: "interrupt"}, opApply}, 0},
		{"the killed job ended in ERROR: a new job", false, a, []step{killWait, {Kind: stepOp, Name: "end-orphan"}, opApply}, 1},
		{"the killed job ended in ERROR, keep_failed: kept, no job", false, a, []step{killWait, keepOn, {Kind: stepOp, Name: "end-orphan"}, opApply}, 0},
		{"the killed job ended in ERROR, kept, then keep_failed off: a new job", false, a,
			[]step{killWait, keepOn, {Kind: stepOp, Name: "end-orphan"}, opApply, keepOff, opApply}, 1},
		{"the killed job EXPIRED, a new job, then keep_failed: nothing more", false, a,
			[]step{killWait, {Kind: stepOp, Name: "end-orphan", Value: 2}, opApply, keepOn, opApply}, 0},
		{"the killed job CANCELLED, adopted by id: replaced", false, a,
			[]step{killWait, {Kind: stepOp, Name: "end-orphan", Value: 1}, {Kind: stepOp, Name: "adopt"}, opApply}, 1},
		{"the killed job CANCELLED, adopted by id, keep_failed: kept", false, a,
			[]step{killWait, keepOn, {Kind: stepOp, Name: "end-orphan", Value: 1}, {Kind: stepOp, Name: "adopt"}, opApply}, 0},
		{"the killed job purged: a new job", false, a, []step{killWait, {Kind: stepOp, Name: "end-orphan", Value: 3}, opApply}, 1},
		{"killed, then another directory: every instance a new job", false, a, []step{killWait, {Kind: stepOp, Name: "other-dir"}}, 1},
		{"killed, adopted, applied: adopted, no job", false, a, []step{killWait, {Kind: stepOp, Name: "adopt"}, opApply}, 0},
		{"killed, then a new workspace: a new job", false, a, []step{killWait, {Kind: stepOp, Name: "workspace-new"}, opApply}, 1},
		{"killed, a new workspace applied, back: resumed", false, a, []step{killWait, {Kind: stepOp, Name: "workspace-new"}, opApply,
			{Kind: stepOp, Name: "workspace-select"}, opApply}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, e := killModel(t, c.remote, c.blocks, c.steps...)
			wantJobs(t, e, c.want)
		})
	}
}

// A killed apply that lost the state (remote here; OpenTofu's local state
// file too) lost the trigger's terraform_data with it. The instance
// adopted since is replaced by the apply that creates the trigger on
// OpenTofu (one new job: explorer seed 31955), not on Terraform.
func TestModelKill_triggerCreatedBesideAnAdoptedInstance(t *testing.T) {
	steps := []step{killWait, {Kind: stepOp, Name: "adopt"}, opApply}
	for _, c := range []struct {
		name           string
		createTriggers bool
		want           int
	}{{"Terraform: adopted", false, 0}, {"OpenTofu: replaced", true, 1}} {
		t.Run(c.name, func(t *testing.T) {
			_, e := killModelOn(t, c.createTriggers, true, []block{rows("r0", 0, true)}, steps...)
			wantJobs(t, e, c.want)
		})
	}
}

// The kill of a new object observed as the runner observes it: the state
// without it, its job the journal's; the next apply settles it, and the
// state must hold that job.
func TestModelKill_observed(t *testing.T) {
	m := newModel(config{Blocks: []block{rows("r0", 0, false), rows("r1", 1, true)}})
	m.remote = true
	kp, _ := m.opKill(killWait)
	jx, jy := jobOf("11", defOf(m.cfg.Blocks[0])), jobOf("12", defOf(m.cfg.Blocks[1]))
	o := observed{Failed: true, State: map[string]stateInst{}, Jobs: []emulator.Job{jx, jy}}
	if p := checkKill(kp, expect{}, o); len(p) > 0 {
		t.Fatalf("the kill's check: %q", p)
	}
	m.learnKill(kp, o)
	if len(m.journal) != 2 {
		t.Fatalf("the journal holds %d entries, want 2 (x returned, y waited; the remote state has neither)", len(m.journal))
	}
	m.releases()
	e := m.op(opApply)
	wantJobs(t, e, 0)
	o = observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "11"}, "etl_import.r1[0]": {ID: "12"}}, Jobs: o.Jobs, Before: 2}
	if _, p := check(e, o); len(p) > 0 {
		t.Errorf("both resumed: %q", p)
	}
	o.Jobs, o.State["etl_import.r0[0]"] = append(o.Jobs, jobOf("13", defOf(m.cfg.Blocks[0]))), stateInst{ID: "13"}
	if _, p := check(e, o); len(p) == 0 {
		t.Error("x imported twice: no mismatch")
	}
}

// The kill step's own check: a job of data no instance was to get, and an
// instance holding a job of another, are mismatches; so is a command that
// succeeded.
func TestCheckKill(t *testing.T) {
	m := newModel(config{Blocks: []block{rows("r0", 0, true), rows("r1", 1, true)}})
	kp, e := m.opKill(killWait)
	a, b := jobOf("1", defOf(m.cfg.Blocks[0])), jobOf("2", defOf(m.cfg.Blocks[1]))
	c := jobOf("3", defOf(rows("x", 2, true)))
	for _, tc := range []struct {
		o    observed
		want int
	}{
		{observed{Failed: true, State: map[string]stateInst{"etl_import.r0[0]": {ID: "1"}}, Jobs: []emulator.Job{a, b}}, 0},
		{observed{Failed: false, State: map[string]stateInst{}, Jobs: []emulator.Job{a}}, 1},
		{observed{Failed: true, State: map[string]stateInst{}, Jobs: []emulator.Job{a, c}}, 1},
		{observed{Failed: true, State: map[string]stateInst{"etl_import.r0[0]": {ID: "2"}}, Jobs: []emulator.Job{a, b}}, 1},
		{observed{Failed: true, State: map[string]stateInst{}, Jobs: []emulator.Job{a, b, a}}, 2},
	} {
		if p := checkKill(kp, e, tc.o); len(p) != tc.want {
			t.Errorf("%+v: mismatches %q, want %d", tc.o.State, p, tc.want)
		}
	}
}

// A hung job that neither a state nor the journal holds any more (its
// instance destroyed, its entry dropped) is still released at the next
// operation, so that nothing that resumes it waits for ever.
func TestModel_strayHungJobsReleased(t *testing.T) {
	m := newModel(config{Blocks: []block{rows("r0", 0, true)}})
	m.op(step{Kind: stepOp, Name: "apply", Fault: "hang"})
	m.learn(map[string]string{"etl_import.r0[0]": "1"})
	m.op(step{Kind: stepOp, Name: "destroy"})
	if rs := m.releases(); len(rs) != 1 || rs[0].Job != "1" {
		t.Errorf("releases %v, want job 1", rs)
	}
	m.journal = []*entry{newEntry("2", defOf(rows("r0", 0, true)), "P")}
	m.journal[0].Hung = true
	m.dropDestroyed("destroy x", "P")
	m.sweep(nil)
	if rs := m.releases(); len(m.journal) != 0 || len(rs) != 1 || rs[0].Job != "2" {
		t.Errorf("journal %v, releases %v; want none, and job 2 released", m.journal, rs)
	}
}

// end-orphan of a job the state holds too (a tainted job the killed apply
// resumed, its entry left until the next refresh) ends the instance's
// job: the next apply replaces it (explorer seed 1147 on Terraform 1.16).
func TestModel_endOrphanHeldByTheState(t *testing.T) {
	m := newModel(config{Blocks: []block{rows("r0", 0, true)}})
	m.state["etl_import.r0[0]"] = &inst{Job: "j1", Def: defOf(m.cfg.Blocks[0]), Submit: true}
	m.journal = []*entry{newEntry("j1", defOf(m.cfg.Blocks[0]), "j1")}
	m.op(step{Kind: stepOp, Name: "end-orphan", Value: 1})
	if st := m.state["etl_import.r0[0]"]; st.Ended != "CANCELLED" || !m.cancelled["j1"] {
		t.Fatalf("the instance holding the job ended: %+v", st)
	}
	m.learn(nil)
	wantJobs(t, m.op(opApply), 1)
}
