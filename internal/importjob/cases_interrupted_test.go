package importjob

import (
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// The tables of the guide on interrupted applies
// (templates/guides/interrupted-applies.md.tmpl and exactly-once.md.tmpl):
// one case per row.

// cutShort is a tainted job of base in status, handed over to the create
// that follows (its entry), if HandsOver says so.
func cutShort(t *testing.T, base Import, status jobstatus.JobStatus) []Entry {
	t.Helper()
	if !HandsOver(tainted(base, status, base)) {
		return nil
	}
	return []Entry{{Job: ref("T"), Key: keyOf(base), HandedOver: true, RunAlive: true}}
}

func nextApplyCases() []rowCase {
	return []rowCase{
		{"still running (`SUBMITTED`, `RUNNING`, `QUEUED`, `WAITING`)", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusSubmitted, jobstatus.StatusRunning, jobstatus.StatusQueued, jobstatus.StatusWaiting} {
				expectResume(t, Resumed{Status: s, Submit: true}, Resumption{Submit: s == jobstatus.StatusRunning || s == jobstatus.StatusQueued})
			}
		}},
		{"`COMPLETED`", func(t *testing.T) {
			expectResume(t, Resumed{Status: jobstatus.StatusCompleted, Submit: true}, Resumption{})
		}},
		{"never submitted (`EDITING`, or a `submit` that failed)", func(t *testing.T) {
			expectResume(t, Resumed{Status: jobstatus.StatusEditing, Submit: true}, Resumption{Submit: true})
			expectResume(t, Resumed{Status: jobstatus.StatusEditing}, Resumption{})
		}},
		{"`ERROR`, `CANCELLED` or `EXPIRED`: it did not import", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusError, jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				expectResume(t, Resumed{Status: s, Submit: true}, Resumption{StartNew: true})
			}
			expectResume(t, Resumed{Gone: true}, Resumption{StartNew: true})
		}},
		{"an input of `inputs` never loaded", func(t *testing.T) {
			// Its content_sha256 is recorded null: not the planned data.
			incomplete := Import{Template: Known("t1"), Kind: KindInputs, ContentSHA256: Known("")}
			if HandsOver(tainted(incomplete, jobstatus.StatusEditing, inputsImport("i1"))) {
				t.Error("a job whose inputs were not all loaded is handed over")
			}
		}},
	}
}

func runOrChangeCases() []rowCase {
	a := rowsImport("t1", "A")
	key := keyOf(a)
	asked := func(t *testing.T) {
		r := tainted(a, jobstatus.StatusCompleted, a)
		r.Asked = true
		if HandsOver(r) {
			t.Error("a replacement asked for hands its job over")
		}
		expectJobs(t, nil, Create{Key: key, Replaces: ref("P")}, "", 1)
	}
	return []rowCase{
		{"`terraform apply -replace=<address>`", asked},
		{"`lifecycle { replace_triggered_by = [...] }`, the trigger changed", asked},
		{"a change that defines the import (template, bytes, format, encoding, inputs, `file`/`rows`/`inputs`)", func(t *testing.T) {
			expectReplace(t, Change{Prior: a, Next: rowsImport("t1", "B")}, PartContent)
			asked(t)
		}},
		{"a wait cut short (timeout, Ctrl-C, a failed poll or submit), nothing else changed", func(t *testing.T) {
			expectJobs(t, cutShort(t, a, jobstatus.StatusRunning), Create{Key: key, Replaces: ref("T")}, jobstatus.StatusRunning, 0)
		}},
		{"`terraform taint <address>`, nothing else changed", func(t *testing.T) {
			expectJobs(t, cutShort(t, a, jobstatus.StatusCompleted), Create{Key: key, Replaces: ref("T")}, jobstatus.StatusCompleted, 0)
		}},
		{"a wait cut short, then a change that defines the import (say `file.format` corrected)", func(t *testing.T) {
			csv, psv := fileImport("t1", "s1", "CSV", "UTF-8"), fileImport("t1", "s1", "PSV", "UTF-8")
			if HandsOver(tainted(csv, jobstatus.StatusRunning, psv)) {
				t.Error("a tainted CSV job is handed to a PSV import")
			}
			expectJobs(t, nil, Create{Key: keyOf(psv), Replaces: ref("T")}, "", 1)
		}},
		{"the job ended in `ERROR`, `CANCELLED` or `EXPIRED` after its apply returned (no `wait_for_completion`), seen by the next refresh", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusError, jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				if p := PlanChange(Change{Prior: a, Next: a, Status: s}); !p.ReplaceFailed {
					t.Errorf("%s: %+v, want the failed job replaced", s, p)
				}
				expectReplace(t, Change{Prior: a, Next: a, Status: s, KeepFailed: true})
				r := tainted(a, s, a)
				r.Asked = true
				if HandsOver(r) {
					t.Errorf("the replacement of a %s job hands it over", s)
				}
			}
			expectJobs(t, nil, Create{Key: key, Replaces: ref("P")}, "", 1)
		}},
		{"Terraform killed during the upload or the wait (`SIGKILL`, a CI runner cancelled or out of memory), or the provider process killed: the state never got the job", func(t *testing.T) {
			left := []Entry{killed("1", key, "")}
			expectJobs(t, left, Create{Key: key}, jobstatus.StatusRunning, 0)
			expectJobs(t, nil, Create{Key: key}, "", 1) // an upload cut short left no job
			running := []Entry{{Job: ref("1"), Key: key, Held: true}}
			expectJobs(t, running, Create{Key: key}, "", 1) // the killed provider's CLI still runs it: not yet
		}},
		{"Terraform killed after a create returned, before the state got it (a remote backend, or OpenTofu's local state file: written every 20 seconds and at the end)", func(t *testing.T) {
			returned := Entry{Job: ref("1"), Key: key, RunAlive: true}
			expectJobs(t, []Entry{returned}, Create{Key: key}, "", 1) // its run may still record it
			returned.RunAlive = false
			expectJobs(t, []Entry{returned}, Create{Key: key}, jobstatus.StatusCompleted, 0)
		}},
		{"Terraform killed, then a change that defines the import (say the rows edited) applied", func(t *testing.T) {
			left := []Entry{killed("1", key, "")}
			b := keyOf(rowsImport("t1", "B"))
			expectJobs(t, left, Create{Key: b}, "", 1)
		}},
	}
}
