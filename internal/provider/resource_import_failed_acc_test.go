package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A job that imported nothing (ERROR, CANCELLED, EXPIRED) is not an
// import, however it is seen: the next plan replaces it with one new job
// and names it, the apply starts exactly one job, and the plan after it
// is empty once that job completes; keep_failed = true keeps it. Each
// test drives the CLI on testdata/reimport and asserts on the emulator's
// record of jobs.

// failedStatuses are the statuses of a job that imported nothing.
var failedStatuses = []string{emulator.StatusError, emulator.StatusCancelled, emulator.StatusExpired}

// plan runs terraform plan with the -var pairs kv and returns its output
// and whether it plans changes.
func (c *reimportCLI) plan(t *testing.T, kv ...string) (string, bool) {
	t.Helper()
	changes, out := detailedPlan(t, c.run, c.vars(kv...)...)
	return out, changes
}

// expectReplacedFailed checks that the plan out replaces job id, failed
// with status, naming it, once.
func expectReplacedFailed(t *testing.T, out string, changes bool, id, status string) {
	t.Helper()
	if !changes {
		t.Fatalf("the plan of job %s, %s, plans no change:\n%s", id, status, out)
	}
	expectOutput(t, out, "Import job "+id+" ended with status "+status+": a new job is planned", "forces replacement", "0 to change, 1 to destroy.")
	if n := strings.Count(out, "Import job "+id+" ended with status"); n != 1 {
		t.Errorf("%d warnings name the failed job, want 1:\n%s", n, out)
	}
}

// A job that ends on its own after an apply that did not wait: the next
// refresh sees it, the plan replaces it, the apply starts one job.
func TestAccFailed_afterApplyWithoutWait(t *testing.T) {
	for _, status := range failedStatuses {
		t.Run(status, func(t *testing.T) {
			c := newReimportCLI(t, emulator.Options{RunTime: time.Hour})
			c.apply(t, true, []string{"wait=false"})
			first := c.expectJobs(t, 1)[0]
			c.e.SetJobStatus(first.ID, status)
			out, changes := c.plan(t, "wait=false")
			expectReplacedFailed(t, out, changes, first.ID, status)
			out = c.apply(t, true, []string{"wait=false"})
			jobs := c.expectJobs(t, 2)
			expectOutput(t, out, "Import job "+first.ID+" ended with status "+status)
			if strings.Contains(out, "its data stays in the model") {
				t.Errorf("the apply says the failed job's data stays, but it imported none:\n%s", out)
			}
			if s := c.state(t)[gl("a")]; s.ID != jobs[1].ID {
				t.Errorf("state holds %+v, want the new job %s", s, jobs[1].ID)
			}
			c.e.SetJobStatus(jobs[1].ID, emulator.StatusCompleted)
			if out, changes := c.plan(t, "wait=false"); changes {
				t.Errorf("the plan after the new job completed plans changes:\n%s", out)
			}
			c.expectJobs(t, 2)
		})
	}
}

// keep_failed = true keeps a failed job in every case: seen by a refresh
// (no plan replaces it), and waited for (the apply warns instead of
// failing, nothing is tainted). Set back to false, the next plan
// replaces it.
func TestAccFailed_keepFailed(t *testing.T) {
	c := newReimportCLI(t, emulator.Options{RunTime: time.Hour})
	keep := []string{"wait=false", "keep_failed=true"}
	c.apply(t, true, keep)
	first := c.expectJobs(t, 1)[0]
	c.e.SetJobStatus(first.ID, emulator.StatusError)
	if out, changes := c.plan(t, keep...); changes {
		t.Errorf("keep_failed: the plan changes something:\n%s", out)
	}
	c.apply(t, true, keep)
	c.expectJobs(t, 1)
	if s := c.state(t)[gl("a")]; s.ID != first.ID || s.Status != emulator.StatusError || s.Tainted {
		t.Errorf("state holds %+v, want job %s kept in ERROR, untainted", s, first.ID)
	}
	out, changes := c.plan(t, "wait=false")
	expectReplacedFailed(t, out, changes, first.ID, emulator.StatusError)

	// Waited for: the failure is a warning, the job stays, untainted.
	w := newReimportCLI(t, emulator.Options{RunTime: time.Hour})
	cmd, buf := w.startWaiting(t, w.e, append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, w.vars("keep_failed=true")...)...)
	waited := w.e.Jobs()[0]
	w.e.SetJobStatus(waited.ID, emulator.StatusError)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the apply that waited for a job kept by keep_failed failed: %v\n%s", err, buf)
	}
	expectOutput(t, buf.String(), "Import job "+waited.ID+" ended with status ERROR", "keep_failed is true, so the job stays in the Terraform state")
	if s := w.state(t)[gl("a")]; s.ID != waited.ID || s.Status != emulator.StatusError || s.Tainted {
		t.Errorf("state holds %+v, want job %s kept in ERROR, untainted", s, waited.ID)
	}
	if out, changes := w.plan(t, "keep_failed=true"); changes {
		t.Errorf("keep_failed: the plan after a waited failure changes something:\n%s", out)
	}
	w.expectJobs(t, 1)
}

// A failed job adopted by id (terraform import): the next apply replaces
// it with one new job, named in its plan; the same job adopted with
// keep_failed = true is kept.
func TestAccFailed_adopted(t *testing.T) {
	for _, tc := range []struct {
		status string
		keep   bool
	}{{emulator.StatusError, false}, {emulator.StatusCancelled, false}, {emulator.StatusExpired, false}, {emulator.StatusError, true}} {
		status, keep := tc.status, tc.keep
		t.Run(fmt.Sprintf("%s keep_failed=%v", status, keep), func(t *testing.T) {
			c := newReimportCLI(t, emulator.Options{})
			// The trigger first: OpenTofu replaces an object whose
			// replace_triggered_by names a resource the same apply creates.
			c.apply(t, true, nil, "-target=terraform_data.trigger")
			id := startJob(t, c.e, emulator.GLActualsTemplateID, [][]string{{"Account"}, {"4000"}})
			c.e.SetJobStatus(id, status)
			kv := []string{fmt.Sprintf("keep_failed=%v", keep)}
			if out, err := c.run(append([]string{"import", "-no-color", "-input=false"}, append(c.vars(kv...), gl("a"), id)...)...); err != nil {
				t.Fatalf("terraform import: %v\n%s", err, out)
			}
			out, changes := c.plan(t, kv...)
			if keep {
				if changes && strings.Contains(out, "forces replacement") {
					t.Errorf("keep_failed: the plan replaces the adopted failed job:\n%s", out)
				}
				out := c.apply(t, true, kv)
				if n := len(c.e.Jobs()); n != 1 {
					t.Errorf("%d jobs on the emulator, want the adopted one alone:\n%s", n, out)
				}
				return
			}
			expectReplacedFailed(t, out, changes, id, status)
			c.apply(t, true, kv)
			jobs := c.e.Jobs()
			if len(jobs) != 2 || jobs[0].ID != id {
				t.Fatalf("jobs on the emulator: %+v, want the adopted %s and one new", jobs, id)
			}
			if jobs[1].Upload == nil || jobs[1].Upload.SHA256 != sha256Hex(reimportData) {
				t.Errorf("the new job received %+v, want the configuration's bytes", jobs[1].Upload)
			}
			if s := c.state(t)[gl("a")]; s.ID != jobs[1].ID || s.Status != emulator.StatusCompleted {
				t.Errorf("state holds %+v, want the new job %s COMPLETED", s, jobs[1].ID)
			}
			if out, changes := c.plan(t, kv...); changes {
				t.Errorf("the plan after the new job completed plans changes:\n%s", out)
			}
		})
	}
}
