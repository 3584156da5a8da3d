package importjob

import (
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// The resource page's table of changes (templates/resources/import.md.tmpl,
// "What changes do"): one case per row.

// inPlace asserts that changing prior into next (what edit makes of it)
// updates in place.
func inPlace(prior Import, edit func(*Import)) func(t *testing.T) {
	return func(t *testing.T) {
		next := prior
		if prior.File != nil {
			f := *prior.File
			next.File = &f
		}
		edit(&next)
		expectReplace(t, Change{Prior: prior, Next: next})
	}
}

// replaces asserts that next, from prior, replaces the job for parts.
func replaces(prior, next Import, parts ...Part) func(t *testing.T) {
	return func(t *testing.T) { expectReplace(t, Change{Prior: prior, Next: next}, parts...) }
}

// submitOn is submit turned on for a job in status s, a failed job kept
// (keep_failed): the submit rows are those of a job the plan keeps.
func submitOn(s jobstatus.JobStatus) Change {
	f := fileImport("t1", "s1", "CSV", "UTF-8")
	return Change{Prior: f, Next: f, SubmitTurnedOn: true, Status: s, KeepFailed: true}
}

// failedCases: a job that imported nothing is replaced, however it was
// seen, unless keep_failed keeps it; a job in progress, completed or gone
// is not.
func failedCases(t *testing.T) {
	f := fileImport("t1", "s1", "CSV", "UTF-8")
	for _, s := range []jobstatus.JobStatus{jobstatus.StatusError, jobstatus.StatusCancelled, jobstatus.StatusExpired} {
		p := PlanChange(Change{Prior: f, Next: f, Status: s})
		if !p.ReplaceFailed || !slices.Equal(p.Warnings, []Warning{WarnFailedReplaced}) || len(p.Replace) != 0 {
			t.Errorf("%s: %+v, want a replacement of the failed job, with its warning", s, p)
		}
		if !ReplacesFailed(s, false) || ReplacesFailed(s, true) {
			t.Errorf("%s: ReplacesFailed without and with keep_failed = %v, %v", s, ReplacesFailed(s, false), ReplacesFailed(s, true))
		}
		expectReplace(t, Change{Prior: f, Next: f, Status: s, KeepFailed: true})
		if d := Resume(Resumed{Status: s, Submit: true, KeepFailed: true}); d.StartNew || d.Submit {
			t.Errorf("%s kept: a create that settles it does %+v, want it kept as it is", s, d)
		}
	}
	for _, s := range []jobstatus.JobStatus{jobstatus.StatusRunning, jobstatus.StatusEditing, jobstatus.StatusCompleted, "NOT_FOUND"} {
		expectReplace(t, Change{Prior: f, Next: f, Status: s, Gone: s == "NOT_FOUND"})
	}
}

func changeCases() []rowCase {
	base := fileImport("t1", "s1", "CSV", "UTF-8")
	return []rowCase{
		{"`template_id`, `file.format` or `file.encoding`", replaces(base, fileImport("t2", "s1", "CSV", "UTF-8"), PartTemplate)},
		{"the bytes sent: an edited file, other `file.content` or `file.content_wo`, other `rows` or `rows_wo` (`content_sha256`)", func(t *testing.T) {
			replaces(base, fileImport("t1", "s2", "CSV", "UTF-8"), PartContent)(t)
			replaces(rowsImport("t1", "r1"), rowsImport("t1", "r2"), PartContent)(t)
		}},
		{"`template_id`, `file.format` or `file.encoding`", replaces(base, fileImport("t1", "s1", "PSV", "UTF-8"), PartFormat)},
		{"`template_id`, `file.format` or `file.encoding`", replaces(base, fileImport("t1", "s1", "CSV", "UTF-16"), PartEncoding)},
		{"switching between `file`, `rows` (or `rows_wo`) and `inputs`", func(t *testing.T) {
			replaces(base, rowsImport("t1", "s1"), PartKind)(t)
			replaces(rowsImport("t1", "s1"), inputsImport("s1"), PartKind)(t)
		}},
		{"`inputs`: an input's bytes, format or encoding, or an input added or removed (all in `content_sha256`)", replaces(inputsImport("i1"), inputsImport("i2"), PartContent)},
		{"`inputs`: an input's file moved to another path with the same bytes, its `name` or `part_name`, a step keyed by its input id instead of its name", inPlace(inputsImport("i1"), func(*Import) {})},
		{"the same bytes from elsewhere: `file.path` to another file (a moved file, another checkout), `file.content` to `file.path`, `rows` to `rows_wo` or `file.content` to `file.content_wo` (or back)", inPlace(base, func(i *Import) { i.File.Path = Known("../other/gl.csv") })},
		{"the same bytes from elsewhere: `file.path` to another file (a moved file, another checkout), `file.content` to `file.path`, `rows` to `rows_wo` or `file.content` to `file.content_wo` (or back)", inPlace(base, func(i *Import) { i.File.Path, i.File.Inline = Known(""), true })},
		{"the same bytes from elsewhere: `file.path` to another file (a moved file, another checkout), `file.content` to `file.path`, `rows` to `rows_wo` or `file.content` to `file.content_wo` (or back)", func(t *testing.T) {
			inPlace(rowsImport("t1", "r1"), func(i *Import) { i.WriteOnly = true })(t)
			inPlace(base, func(i *Import) { i.File.Path, i.File.Inline, i.WriteOnly = Known(""), true, true })(t)
		}},
		{"`file.name` or `file.part_name`", inPlace(base, func(i *Import) { i.File.Name = Known("renamed.csv") })},
		{"`file.name` or `file.part_name`", inPlace(base, func(i *Import) { i.File.PartName = Known("data") })},
		{"`submit` turned on, job not yet submitted (`EDITING`, `RUNNING`, or `QUEUED` behind another job of its model)", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusEditing, jobstatus.StatusRunning, jobstatus.StatusQueued} {
				expectReplace(t, submitOn(s))
				if got := SubmitInPlace(true, s); got != SubmitNow {
					t.Errorf("%s: SubmitInPlace = %d, want SubmitNow", s, got)
				}
			}
		}},
		{"`submit` turned on, job that was submitted (`SUBMITTED`, `WAITING`, `COMPLETED`, or `ERROR` kept by `keep_failed`), whatever its status now", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusSubmitted, jobstatus.StatusWaiting, jobstatus.StatusCompleted, jobstatus.StatusError} {
				expectReplace(t, submitOn(s))
				if got := SubmitInPlace(true, s); got != SubmitNothing {
					t.Errorf("%s: SubmitInPlace = %d, want SubmitNothing", s, got)
				}
			}
		}},
		{"`submit` turned on, job never submitted that can no longer be (`CANCELLED`, `EXPIRED`), even with `keep_failed = true`", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				if p := PlanChange(submitOn(s)); !p.ReplaceForSubmit || !slices.Equal(p.Warnings, []Warning{WarnSubmitReplaces}) {
					t.Errorf("%s: %+v, want a replacement for submit, with its warning", s, p)
				}
			}
		}},
		{"`submit` turned on by a saved plan, and the job `EXPIRED` or was `CANCELLED` before the apply", func(t *testing.T) {
			expectReplace(t, submitOn(jobstatus.StatusEditing)) // the plan, made while it could be submitted
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				if got := SubmitInPlace(true, s); got != SubmitFails {
					t.Errorf("%s at apply: SubmitInPlace = %d, want SubmitFails", s, got)
				}
			}
		}},
		{"the job ended in `ERROR`, `CANCELLED` or `EXPIRED`, however that was seen: by the apply that waited for it, a later refresh, or after `terraform import`", failedCases},
		{"`submit` turned on, job never submitted that can no longer be (`CANCELLED`, `EXPIRED`), even with `keep_failed = true`", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				c := submitOn(s)
				c.KeepFailed = false
				if p := PlanChange(c); !p.ReplaceFailed || p.ReplaceForSubmit {
					t.Errorf("%s without keep_failed: %+v, want the failed job's replacement alone", s, p)
				}
			}
		}},
		{"the template's input ids changed on the service, its steps the same (names, order) and each input's bytes, format and encoding the same", func(t *testing.T) {
			p := expectReplace(t, Change{Prior: inputsImport("ids1"), Next: inputsImport("ids2"), NewInputIDsOnly: true})
			if !p.Rehash || !slices.Equal(p.Warnings, []Warning{WarnRehashed}) {
				t.Errorf("%+v, want content_sha256 recorded anew, with its warning", p)
			}
			if got := ChangedAtApply(inputsImport("ids1").Definition(), inputsImport("ids2").Definition(), true); len(got) != 0 {
				t.Errorf("the apply finds %v changed, want nothing (rehashed)", got)
			}
		}},
		{"a tainted job whose apply was cut short, or `terraform taint` (see [Recovering an interrupted apply](../guides/interrupted-applies.md))", func(t *testing.T) {
			if !HandsOver(tainted(base, jobstatus.StatusRunning, base)) {
				t.Error("a tainted running job of the same definition is not handed over")
			}
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusError, jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				if HandsOver(tainted(base, s, base)) {
					t.Errorf("a tainted %s job is handed over", s)
				}
			}
			if HandsOver(tainted(base, jobstatus.StatusRunning, fileImport("t1", "s1", "PSV", "UTF-8"))) {
				t.Error("a tainted job is handed over to another definition")
			}
		}},
		{"`terraform apply -replace=<address>`, or a `replace_triggered_by` trigger changed (of an object that is not tainted)", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusRunning, jobstatus.StatusCompleted} {
				r := tainted(base, s, base)
				r.Asked = true
				if HandsOver(r) {
					t.Errorf("a replacement asked for hands its %s job over", s)
				}
			}
		}},
		{"`submit` turned off, `wait_for_completion`, `cancel_on_destroy`, `keep_failed` or `timeouts`", func(t *testing.T) {
			expectReplace(t, Change{Prior: base, Next: base})
			if got := SubmitInPlace(false, jobstatus.StatusEditing); got != SubmitNothing {
				t.Errorf("SubmitInPlace = %d, want SubmitNothing", got)
			}
		}},
		{"`submit` turned off, `wait_for_completion`, `cancel_on_destroy`, `keep_failed` or `timeouts`", func(t *testing.T) {
			expectReplace(t, Change{Prior: base, Next: base})
			for s, want := range map[jobstatus.JobStatus]bool{jobstatus.StatusRunning: true, jobstatus.StatusQueued: true, jobstatus.StatusEditing: false, jobstatus.StatusCompleted: false} {
				if got := WaitInPlace(true, s); got != want {
					t.Errorf("WaitInPlace(%s) = %v, want %v", s, got, want)
				}
			}
		}},
		{"`submit` turned off, `wait_for_completion`, `cancel_on_destroy`, `keep_failed` or `timeouts`", inPlace(base, func(*Import) {})},
		{"`submit` turned off, `wait_for_completion`, `cancel_on_destroy`, `keep_failed` or `timeouts`", inPlace(base, func(*Import) {})},
	}
}
