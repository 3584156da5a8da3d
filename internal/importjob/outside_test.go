package importjob

import (
	"strings"
	"testing"
)

// What a plan does when what lies outside its configuration cannot be
// read: an error only for a new object.
func TestPlanUnreadable(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Holding
		want Unreadable
	}{
		{"a new object fails at plan", HoldsNothing, Unreadable{}},
		{"a live object keeps its data and warns", HoldsLive, Unreadable{Warn: true, KeepPrior: true}},
		{"a replacement warns and its Delete refuses", HoldsReplaced, Unreadable{Warn: true, RefuseDelete: true}},
		{"a tainted object's replacement likewise", HoldsTainted, Unreadable{Warn: true, RefuseDelete: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlanUnreadable(tc.h); got != tc.want {
				t.Errorf("PlanUnreadable(%d) = %+v, want %+v", tc.h, got, tc.want)
			}
		})
	}
}

// A refresh remembers the sources of the object it read; a plan with one
// of them is that of the object's job. A nil Refreshed remembers nothing.
func TestRefreshed(t *testing.T) {
	var r Refreshed
	a, b := []string{`"7" file.path="/d/a.csv"`}, []string{`"8" file.path="/d/a.csv"`}
	if job := r.JobOf(a); job != "" {
		t.Errorf("before any refresh: job %q", job)
	}
	r.Add("42", a)
	if job := r.JobOf(a); job != "42" {
		t.Errorf("after its refresh: job %q, want 42", job)
	}
	if job := r.JobOf(b); job != "" {
		t.Errorf("another source: job %q, want none", job)
	}
	if job := r.JobOf(append(b, a...)); job != "42" {
		t.Errorf("one source of several: job %q, want 42", job)
	}
	var none *Refreshed
	none.Add("42", a)
	if job := none.JobOf(a); job != "" {
		t.Errorf("nil: job %q", job)
	}
}

// An imported job that has not adopted its configuration is remembered by
// its model: a plan of a template of that model is that of its job.
func TestRefreshed_imported(t *testing.T) {
	var r Refreshed
	r.Add("43", []string{ImportedSource("600")})
	if job := r.JobOf([]string{ImportedSource("600")}); job != "43" {
		t.Errorf("the imported job's model: job %q, want 43", job)
	}
	if job := r.JobOf([]string{ImportedSource("601")}); job != "" {
		t.Errorf("another model: job %q, want none", job)
	}
}

// A template not found stops only the replacement of a live object, whose
// create would start a new job from it.
func TestPlanTemplateGone(t *testing.T) {
	for h, want := range map[Holding]Unreadable{
		HoldsNothing:  {},
		HoldsLive:     {},
		HoldsReplaced: {Warn: true, RefuseDelete: true},
		HoldsTainted:  {},
	} {
		if got := PlanTemplateGone(h); got != want {
			t.Errorf("PlanTemplateGone(%d) = %+v, want %+v", h, got, want)
		}
	}
}

// The note of a live object's plan says the job stays and destroy works;
// that of a replacement, that the apply fails before it destroys or starts
// anything. Both name the job.
func TestUnreadableNote(t *testing.T) {
	live := UnreadableNote(HoldsLive, "42")
	for _, want := range []string{"Import job 42", "terraform destroy works", "fails with this error before it destroys or starts anything", "-replace"} {
		if !strings.Contains(live, want) {
			t.Errorf("live note %q lacks %q", live, want)
		}
	}
	for _, h := range []Holding{HoldsReplaced, HoldsTainted} {
		n := UnreadableNote(h, "42")
		for _, want := range []string{"replaces import job 42", "the state keeps job 42", "terraform destroy works"} {
			if !strings.Contains(n, want) {
				t.Errorf("note of %d %q lacks %q", h, n, want)
			}
		}
	}
}

// A refused Delete's detail starts with the problem, and says the state
// keeps the job.
func TestRefusedDelete(t *testing.T) {
	d := RefusedDelete("file.path: gone", "42")
	if !strings.HasPrefix(d, "file.path: gone\n\n") || !strings.Contains(d, "replaces import job 42") ||
		!strings.Contains(d, "Nothing was destroyed and no job was started: the state keeps job 42") {
		t.Errorf("detail %q", d)
	}
}
