package explore

import "testing"

// The model of a resource's whole life against the resource page ("When
// the file or the service is gone"), one case each, on a block of two
// instances of one CSV file (runModel): what the last operation must do.

var (
	fileGoneEdit  = step{Kind: stepEdit, Name: "file", Value: fileGone}
	fileLoopEdit  = step{Kind: stepEdit, Name: "file", Value: fileUnreadable}
	fileBackEdit  = step{Kind: stepEdit, Name: "file", Value: fileHere}
	opDestroy     = step{Kind: stepOp, Name: "destroy"}
	opImport      = step{Kind: stepOp, Name: "import"}
	opDelTemplate = step{Kind: stepOp, Name: "delete-template"}
)

func TestModelLife(t *testing.T) {
	edit := func(name string, v int) step { return step{Kind: stepEdit, Name: name, Value: v} }
	cases := []struct {
		name  string
		steps []step
		jobs  int
		fail  bool
		kept  int // instances that keep their job from before
	}{
		{"file gone: no change", []step{opApply, fileGoneEdit, opApply}, 0, false, 2},
		{"file unreadable: no change", []step{opApply, fileLoopEdit, opApply}, 0, false, 2},
		{"file gone: a plan and its apply, no change", []step{opApply, fileGoneEdit, {Kind: stepOp, Name: "plan-apply"}}, 0, false, 2},
		{"file gone: destroy works", []step{opApply, fileGoneEdit, opDestroy}, 0, false, 0},
		{"file gone, -replace: fails before anything, the job kept", []step{opApply, fileGoneEdit, {Kind: stepOp, Name: "replace"}}, 0, true, 2},
		{"file gone, another format: fails, kept", []step{opApply, fileGoneEdit, edit("format", 1), opApply}, 0, true, 2},
		{"file gone, another template: fails, kept", []step{opApply, fileGoneEdit, edit("template", 1), opApply}, 0, true, 2},
		{"file gone, a trigger: fails, kept", []step{opApply, fileGoneEdit, edit("trigger", 1), opApply}, 0, true, 2},
		{"file gone, a trigger, then an apply: the trigger waited for the Delete, fails again", []step{opApply, fileGoneEdit, edit("trigger", 1), opApply, opApply}, 0, true, 2},
		{"file gone, a trigger, then the file back: replaced", []step{opApply, fileGoneEdit, edit("trigger", 1), opApply, fileBackEdit, opApply}, 2, false, 0},
		{"file gone, -replace, then the file back: -replace was that apply's", []step{opApply, fileGoneEdit, {Kind: stepOp, Name: "replace"}, fileBackEdit, opApply}, 0, false, 2},
		{"file gone, its bytes edited: the plan cannot see it", []step{opApply, fileGoneEdit, edit("bytes", 1), opApply}, 0, false, 2},
		{"file gone, bytes edited, then back: replaced", []step{opApply, fileGoneEdit, edit("bytes", 1), opApply, fileBackEdit, opApply}, 2, false, 0},
		{"file gone, the path elsewhere: the update fails", []step{opApply, fileGoneEdit, edit("move", 1), opApply}, 0, true, 2},
		{"file gone, the path back: no change", []step{opApply, fileGoneEdit, edit("move", 1), opApply, edit("move", 0), opApply}, 0, false, 2},
		{"file gone, to rows: replaced, the rows sent", []step{opApply, fileGoneEdit, edit("kind", 1), opApply}, 2, false, 0},
		{"file gone, to inline content: in place", []step{opApply, fileGoneEdit, edit("content", 1), opApply}, 0, false, 2},
		{"file gone, tainted: the resume fails, kept", []step{opApply, opTaint, fileGoneEdit, opApply}, 0, true, 2},
		{"file gone after a destroy: the plan of new objects fails", []step{opApply, opDestroy, fileGoneEdit, opApply}, 0, true, 0},
		{"file gone, a count raised: the new object's plan fails", []step{opApply, edit("count", 1), opApply, fileGoneEdit, edit("count", 2), opApply}, 0, true, 1},
		{"file gone, a count raised: so does destroy's refresh", []step{opApply, edit("count", 1), opApply, edit("count", 2), fileGoneEdit, opDestroy}, 0, true, 1},
		{"file gone after a destroy: destroy again works", []step{opApply, opDestroy, fileGoneEdit, opDestroy}, 0, false, 0},
		{"imported, another template: it fails, the other is replaced", []step{opApply, opImport, edit("template", 1), opApply}, 1, true, 1},
		{"imported, another template, then destroy: works", []step{opApply, opImport, edit("template", 1), opApply, opDestroy}, 0, false, 0},
		{"imported, file gone: the adoption fails", []step{opApply, opImport, fileGoneEdit, opApply}, 0, true, 2},
		{"imported, file gone, -replace: fails", []step{opApply, opImport, fileGoneEdit, {Kind: stepOp, Name: "replace"}}, 0, true, 2},
		{"template deleted: no change", []step{opApply, opDelTemplate, opApply}, 0, false, 2},
		{"template deleted: destroy works", []step{opApply, opDelTemplate, opDestroy}, 0, false, 0},
		{"template deleted, -replace: the Delete refuses, kept", []step{opApply, opDelTemplate, {Kind: stepOp, Name: "replace"}}, 0, true, 2},
		{"template deleted, new objects: their creates fail", []step{opApply, opDelTemplate, opDestroy, opApply}, 0, true, 0},
		{"imported, template deleted: the adoption fails", []step{opApply, opImport, opDelTemplate, opApply}, 0, true, 2},
		{"tainted, file unreadable: destroy works", []step{opApply, {Kind: stepOp, Name: "taint"}, fileLoopEdit, opDestroy}, 0, false, 0},
		{"tainted, file unreadable, path edited: destroy fails as a new object's plan", []step{opApply, {Kind: stepOp, Name: "taint"}, fileLoopEdit, edit("format", 1), opDestroy}, 0, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, e := modelAfter(t, c.steps...)
			lo, hi := e.jobs()
			if lo != c.jobs || hi != c.jobs || e.Fail != c.fail {
				t.Errorf("%d to %d new jobs, fail %t; want %d, fail %t", lo, hi, e.Fail, c.jobs, c.fail)
			}
			if len(e.Keep) != c.kept || len(m.state) != c.kept+c.jobs {
				t.Errorf("%d instances keep their job, %d in the state; want %d and %d", len(e.Keep), len(m.state), c.kept, c.kept+c.jobs)
			}
		})
	}
}

// A failed apply of a tainted or imported instance leaves it as it was:
// still tainted, still to adopt its configuration.
func TestModelLife_blockedLeavesTheInstance(t *testing.T) {
	m, _ := modelAfter(t, opApply, opTaint, fileGoneEdit, opApply)
	if st := m.state["etl_import.r0[0]"]; st == nil || !st.Tainted {
		t.Errorf("r0[0] after the failed resume: %+v, want it tainted", st)
	}
	m, _ = modelAfter(t, opApply, opImport, step{Kind: stepEdit, Name: "template", Value: 1}, opApply)
	if st := m.state["etl_import.r0[0]"]; st == nil || !st.Adopt {
		t.Errorf("r0[0] after the failed adoption: %+v, want it still to adopt", st)
	}
	if m, _ = modelAfter(t, opApply, opImport, step{Kind: stepEdit, Name: "template", Value: 1}, opApply,
		step{Kind: stepEdit, Name: "template", Value: 0}, opApply); m.state["etl_import.r0[0]"].Adopt {
		t.Error("r0[0] with its template back: not adopted")
	}
}

// The second directory's apply of new objects fails at plan when a file
// cannot be read, and when the template is gone; no kill is modelled
// while a file or a template is gone.
func TestModelLife_otherDirAndKills(t *testing.T) {
	for _, steps := range [][]step{{opApply, fileGoneEdit}, {opApply, opDelTemplate}} {
		m, _ := modelAfter(t, steps...)
		if e := m.op(step{Kind: stepOp, Name: "other-dir"}); !e.Fail || len(e.New) != 0 {
			t.Errorf("%s: other-dir fail %t, %d new jobs; want a failure, none", steps[1], e.Fail, len(e.New))
		}
		if m.killable() {
			t.Errorf("%s: a kill is modelled", steps[1])
		}
	}
}
