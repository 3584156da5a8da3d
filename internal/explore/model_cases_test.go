package explore

import "testing"

// The model against the resource page's promises, one case each: how many
// jobs an operation must start.

// runModel runs steps in a model of one block (two instances with
// wait_for_completion) and returns the number of new jobs the last
// operation expects, and its expectation.
func runModel(t *testing.T, steps ...step) (int, expect) {
	t.Helper()
	_, e := modelAfter(t, steps...)
	lo, hi := e.jobs()
	if lo != hi {
		t.Fatalf("the model expects %d to %d new jobs, want one count", lo, hi)
	}
	return lo, e
}

// modelAfter runs steps as runModel does, and returns the model with the
// last operation's expectation.
func modelAfter(t *testing.T, steps ...step) (*model, expect) {
	t.Helper()
	m := newModel(config{Blocks: []block{{Name: "r0", Count: 2, Kind: kindPath, Dir: "a", Wait: true}}})
	var e expect
	next := 0
	for _, s := range steps {
		if s.Kind == stepEdit {
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

var (
	opApply = step{Kind: stepOp, Name: "apply"}
	opTaint = step{Kind: stepOp, Name: "taint"}
)

func TestModel(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
		want  int
	}{
		{"first apply: one job per instance", []step{opApply}, 2},
		{"nothing changed", []step{opApply, opApply}, 0},
		{"-replace: one new job", []step{opApply, {Kind: stepOp, Name: "replace"}}, 1},
		{"taint: resumed", []step{opApply, opTaint, opApply}, 0},
		{"taint then a format change", []step{opApply, opTaint, {Kind: stepEdit, Name: "format", Value: 2}, opApply}, 2},
		{"a format change, the same bytes (one column)", []step{opApply, {Kind: stepEdit, Name: "bytes", Value: 3},
			opApply, {Kind: stepEdit, Name: "format", Value: 1}, opApply}, 2},
		{"an encoding change", []step{opApply, {Kind: stepEdit, Name: "encoding", Value: 1}, opApply}, 2},
		{"a moved file: in place", []step{opApply, {Kind: stepEdit, Name: "move", Value: 1}, opApply}, 0},
		{"path to content: in place", []step{opApply, {Kind: stepEdit, Name: "content", Value: 1}, opApply}, 0},
		{"file to rows", []step{opApply, {Kind: stepEdit, Name: "kind", Value: 1}, opApply}, 2},
		{"replace_triggered_by", []step{opApply, {Kind: stepEdit, Name: "trigger", Value: 1}, opApply}, 2},
		{"timed-out wait, then apply: resumed", []step{{Kind: stepOp, Name: "apply", Fault: "hang"}, opApply}, 0},
		{"wait timed out, job ended in ERROR", []step{{Kind: stepOp, Name: "apply", Fault: "hang-error"}, opApply}, 2},
		{"r0[0] imported, adopted even with other data; r0[1] not", []step{opApply, {Kind: stepOp, Name: "import"},
			{Kind: stepEdit, Name: "bytes", Value: 2}, opApply}, 1},
		{"count lowered: no job", []step{opApply, {Kind: stepEdit, Name: "count", Value: 1}, opApply}, 0},
		{"destroy, then apply", []step{opApply, {Kind: stepOp, Name: "destroy"}, opApply}, 2},
		{"a purged job: kept, no job", []step{opApply, {Kind: stepOp, Name: "purge"}, opApply}, 0},
		{"a purged job, -replace", []step{opApply, {Kind: stepOp, Name: "purge"}, {Kind: stepOp, Name: "replace"}}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := runModel(t, c.steps...); got != c.want {
				t.Errorf("%d new jobs, want %d", got, c.want)
			}
		})
	}
}

// A job that ended in ERROR, CANCELLED or EXPIRED imported nothing: the
// next apply replaces it with one new job however that was seen, unless
// keep_failed keeps it (the resource page's table of changes). r0's jobs
// hang without a wait, so the service ends one (end-job) after the apply.
func TestModel_failedReplacedUnlessKept(t *testing.T) {
	noWait := step{Kind: stepEdit, Name: "wait", Value: 0}
	hang := step{Kind: stepOp, Name: "apply", Fault: "hang"}
	end := func(status int) step { return step{Kind: stepOp, Name: "end-job", Value: status} }
	submitOn := step{Kind: stepEdit, Name: "submit", Value: 1}
	hangErr := step{Kind: stepOp, Name: "apply", Fault: "hang-error"}
	untaint := step{Kind: stepOp, Name: "untaint"}
	imp := step{Kind: stepOp, Name: "import"}
	purge := step{Kind: stepOp, Name: "purge"}
	cases := []struct {
		name  string
		steps []step
		want  int
	}{
		{"ERROR after the apply: one new job", []step{noWait, hang, end(0), opApply}, 1},
		{"CANCELLED after the apply: one new job", []step{noWait, hang, end(1), opApply}, 1},
		{"EXPIRED after the apply: one new job", []step{noWait, hang, end(2), opApply}, 1},
		{"the apply after the new job: nothing", []step{noWait, hang, end(0), opApply, opApply}, 0},
		{"keep_failed: kept", []step{noWait, keepOn, hang, end(0), opApply}, 0},
		{"kept, then keep_failed off: one new job", []step{noWait, keepOn, hang, end(2), opApply, keepOff, opApply}, 1},
		{"kept ERROR, submit turned on: recorded", []step{noWait, keepOn, hang, end(0), submitOn, opApply}, 0},
		{"kept CANCELLED, submit turned on: replaced", []step{noWait, keepOn, hang, end(1), submitOn, opApply}, 1},
		{"kept EXPIRED, submit turned on: replaced", []step{noWait, keepOn, hang, end(2), submitOn, opApply}, 1},
		{"a refresh-only apply: kept; the apply after it replaces it", []step{noWait, hang, end(0), {Kind: stepOp, Name: "refresh"}, opApply}, 1},
		{"imported by id: replaced", []step{noWait, hang, end(0), imp, opApply}, 1},
		{"imported by id, keep_failed: adopted", []step{noWait, keepOn, hang, end(1), imp, opApply}, 0},
		{"purged: kept (NOT_FOUND)", []step{noWait, hang, end(0), purge, opApply}, 0},
		{"timed out, then ERROR: both replaced", []step{hangErr, opApply}, 2},
		{"timed out, ERROR, untainted: replaced all the same", []step{hangErr, untaint, opApply}, 2},
		{"timed out, ERROR, untainted, keep_failed: the untainted one kept", []step{keepOn, hangErr, untaint, opApply}, 1},
		{"timed out, ERROR, keep_failed: tainted, replaced all the same", []step{keepOn, hangErr, opApply}, 2},
		{"ended while tainted (timed out): replaced, the other resumed", []step{hang, end(1), opApply}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := runModel(t, c.steps...); got != c.want {
				t.Errorf("%d new jobs, want %d", got, c.want)
			}
		})
	}
}

// end-job ends a job in progress only: it releases it with its status
// (CANCELLED: a cancel the check wants), and skips a job that ended.
func TestModel_endJob(t *testing.T) {
	_, e := modelAfter(t, step{Kind: stepEdit, Name: "wait", Value: 0}, step{Kind: stepOp, Name: "apply", Fault: "hang"},
		step{Kind: stepOp, Name: "end-job", Index: 1, Value: 1})
	if e.Skip || e.End.Status != "CANCELLED" || e.End.Job != e.Keep["etl_import.r0[1]"] || !e.Cancelled[e.End.Job] || len(e.New) != 0 {
		t.Errorf("end-job of a hung job: %+v", e)
	}
	if _, e := modelAfter(t, opApply, step{Kind: stepOp, Name: "end-job"}); !e.Skip {
		t.Errorf("end-job of a completed job: %+v, want it skipped", e)
	}
}

func TestModel_hangFailsAndTaints(t *testing.T) {
	_, e := runModel(t, step{Kind: stepOp, Name: "apply", Fault: "hang"})
	if !e.Fail || !e.Tainted["etl_import.r0[0]"] {
		t.Errorf("a timed-out wait: fail %t, tainted %t; want both", e.Fail, e.Tainted["etl_import.r0[0]"])
	}
}

func TestModel_destroyCancelsOnlyWithCancelOnDestroy(t *testing.T) {
	for _, cancel := range []bool{false, true} {
		m := newModel(config{Blocks: []block{{Name: "r0", Count: 1, Kind: kindRows, Wait: true, Cancel: cancel}}})
		m.op(step{Kind: stepOp, Name: "apply", Fault: "hang"})
		m.learn(map[string]string{"etl_import.r0[0]": "1"})
		e := m.op(step{Kind: stepOp, Name: "destroy"})
		if e.Cancelled["1"] != cancel {
			t.Errorf("cancel_on_destroy %t: job cancelled %t", cancel, e.Cancelled["1"])
		}
	}
}

// The page's bullets under "How it works, and where it ends": -replace of
// a tainted object is the taint alone; a job imported by id and tainted
// before an apply adopted its configuration is replaced.
func TestModel_whereTheHandOverEnds(t *testing.T) {
	replace := step{Kind: stepOp, Name: "replace"}
	cases := []struct {
		name  string
		steps []step
		want  int
	}{
		{"-replace of a tainted object: resumed", []step{opApply, opTaint, replace}, 0},
		{"-replace of a tainted object whose job ended in ERROR: a new job",
			[]step{{Kind: stepOp, Name: "apply", Fault: "hang-error"}, replace}, 2},
		{"-replace of a tainted object, its format changed: a new job",
			[]step{opApply, opTaint, {Kind: stepEdit, Name: "format", Value: 1}, replace}, 2},
		{"-replace after untaint: a new job", []step{opApply, opTaint, {Kind: stepOp, Name: "untaint"}, replace}, 1},
		{"imported, tainted before an apply adopted it: replaced",
			[]step{opApply, {Kind: stepOp, Name: "import"}, opTaint, opApply}, 1},
		{"imported, adopted, then tainted: resumed",
			[]step{opApply, {Kind: stepOp, Name: "import"}, opApply, opTaint, opApply}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, e := runModel(t, c.steps...)
			if got != c.want {
				t.Errorf("%d new jobs, want %d", got, c.want)
			}
			if last := c.steps[len(c.steps)-1]; c.want == 0 && e.Keep[addr(block{Name: "r0"}, last.Index)] == "" {
				t.Errorf("r0[0] keeps no job: %+v", e)
			}
		})
	}
}

// An imported job of another template fails the plan, unless it is
// tainted: then nothing is adopted, and a new job replaces it.
func TestModel_importedTaintedOtherTemplate(t *testing.T) {
	n, e := runModel(t, opApply, step{Kind: stepOp, Name: "import"}, opTaint,
		step{Kind: stepEdit, Name: "template", Value: 1}, opApply)
	if e.Fail || n != 2 {
		t.Errorf("fail %t, %d new jobs; want a success and 2 new jobs", e.Fail, n)
	}
}

// Tainted objects with identical data, and another one replaced or
// created in the same apply, form one swap group.
func TestModel_swapGroups(t *testing.T) {
	taint1 := step{Kind: stepOp, Name: "taint", Index: 1}
	cases := []struct {
		name  string
		steps []step
		group int // members of the one group; 0: no group
		new   int
	}{
		{"two tainted", []step{opApply, opTaint, taint1, opApply}, 2, 0},
		{"one tainted, the other replaced", []step{opApply, opTaint, {Kind: stepOp, Name: "replace", Index: 1}}, 2, 1},
		{"one tainted, one created", []step{opApply, {Kind: stepEdit, Name: "count", Value: 1}, opApply,
			opTaint, {Kind: stepEdit, Name: "count", Value: 2}, opApply}, 2, 1},
		{"one tainted alone", []step{opApply, opTaint, opApply}, 0, 0},
		{"both created, none tainted", []step{opApply}, 0, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, e := runModel(t, c.steps...)
			members := 0
			for _, g := range e.Swap {
				members += len(g.Members)
			}
			if members != c.group || len(e.Swap) > 1 || n != c.new {
				t.Errorf("swap groups %v, %d new jobs; want one group of %d, %d new jobs", e.Swap, n, c.group, c.new)
			}
		})
	}
}
