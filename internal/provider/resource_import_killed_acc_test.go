package provider

import (
	"slices"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A killed apply's jobs (docs/guides/exactly-once.md, "The journal
// of started jobs"): terraform SIGKILLed mid-apply, then the applies a
// user runs next. Each test drives the CLI with the provider binary as its
// child (helpers_binary_cli_test.go) and counts the jobs on the emulator,
// with the rows each received.

// Rows A and B, told apart by their data row.
var (
	killedRowsA = [][]string{{"Account", "Amount"}, {"4000", "1"}}
	killedRowsB = [][]string{{"Account", "Amount"}, {"4000", "2"}}
)

// newKilledCLI is a CLI on testdata/killed against a new emulator whose
// jobs run until the returned clock is moved on.
func newKilledCLI(t *testing.T, remote bool) (*binaryCLI, *testClock) {
	t.Helper()
	clock := &testClock{}
	e := newTestEmulator(t, emulator.Options{RunTime: time.Hour, Now: clock.Now, RequiredColumns: emulator.RequiredColumnsOff})
	return newBinaryCLI(t, "killed", e, remote), clock
}

// setRows configures one etl_import per key of rows, waited for as wait
// says.
func (c *binaryCLI) setRows(t *testing.T, rows map[string][][]string, wait map[string]bool) {
	t.Helper()
	c.vars(t, map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": rows, "wait": wait})
}

// expectRows requires the emulator's jobs to have received, in order,
// the data rows of want; it returns the jobs.
func (c *binaryCLI) expectRows(t *testing.T, want ...[][]string) []emulator.Job {
	t.Helper()
	jobs := c.e.Jobs()
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs on the emulator, want %d: %+v", len(jobs), len(want), jobs)
	}
	for i, j := range jobs {
		if j.Upload == nil || !slices.EqualFunc(j.Upload.Rows, want[i][1:], slices.Equal) {
			t.Errorf("job %s received %+v, want rows %q", j.ID, j.Upload, want[i][1:])
		}
	}
	return jobs
}

// x is the address of etl_import.x[k].
func x(k string) string { return `etl_import.x["` + k + `"]` }

// The steps 1 to 3: an apply of rows A killed while it waits, then
// the rows changed to B and applied, then back to A and applied. The last
// apply imports A with a new job: the killed apply's job of A is not
// settled by a later change after the resource imported B. 3 jobs in all.
func TestAccKilled_editBackAfterKillImportsAgain(t *testing.T) {
	c, clock := newKilledCLI(t, false)
	wait := map[string]bool{"a": true}
	c.setRows(t, map[string][][]string{"a": killedRowsA}, wait)
	c.applyKilled(t, polled(c.e, 1, 2))
	clock.advance(2 * time.Hour) // job 1 completes
	c.setRows(t, map[string][][]string{"a": killedRowsB}, wait)
	c.completeAt(clock, 2)
	c.apply(t, true)
	c.expectRows(t, killedRowsA, killedRowsB)
	c.setRows(t, map[string][][]string{"a": killedRowsA}, wait)
	c.completeAt(clock, 3)
	out := c.apply(t, true)
	jobs := c.expectRows(t, killedRowsA, killedRowsB, killedRowsA)
	if s := c.state(t)[x("a")]; s.ID != jobs[2].ID {
		t.Errorf("the state holds job %s, want the new job %s", s.ID, jobs[2].ID)
	}
	expectOutput(t, out, "Import job "+jobs[0].ID+" not resumed")
}

// A replacement killed while its new job waits (rows A, applied, then B):
// the next plain apply resumes B's job, with a local state (which got the
// destroy of A's job) and with a remote one (which did not). 2 jobs in all.
func TestAccKilled_replacementResumed(t *testing.T) {
	requireTFAcc(t) // its subtests are acceptance tests
	for name, remote := range map[string]bool{"local": false, "remote": true} {
		t.Run(name, func(t *testing.T) {
			c, clock := newKilledCLI(t, remote)
			wait := map[string]bool{"a": true}
			c.setRows(t, map[string][][]string{"a": killedRowsA}, wait)
			c.completeAt(clock, 1)
			c.apply(t, true)
			c.setRows(t, map[string][][]string{"a": killedRowsB}, wait)
			c.applyKilled(t, polled(c.e, 2, 2))
			clock.advance(2 * time.Hour)
			out := c.apply(t, true)
			jobs := c.expectRows(t, killedRowsA, killedRowsB)
			expectOutput(t, out, "Resumed import job "+jobs[1].ID)
			if s := c.state(t)[x("a")]; s.ID != jobs[1].ID || s.Status != "COMPLETED" {
				t.Errorf("the state holds %+v, want job %s COMPLETED", s, jobs[1].ID)
			}
		})
	}
}

// Two resources in one apply: x submits and does not wait, y waits;
// terraform is killed while y waits, after x's create returned. A remote
// state never got x (Terraform writes it every 20 s and at the end), and
// OpenTofu may leave its local state file unreadable: the next plain
// apply starts no job, and the state then holds both jobs.
func TestAccKilled_createThatReturnedResumed(t *testing.T) {
	requireTFAcc(t) // its subtests are acceptance tests
	for name, remote := range map[string]bool{"local": false, "remote": true} {
		t.Run(name, func(t *testing.T) {
			c, clock := newKilledCLI(t, remote)
			c.setRows(t, map[string][][]string{"x": killedRowsA, "y": killedRowsB}, map[string]bool{"x": false, "y": true})
			c.applyKilled(t, polled(c.e, 2, 2))
			if n := len(c.e.Jobs()); n != 2 {
				t.Fatalf("%d jobs after the killed apply, want 2", n)
			}
			if n := len(c.journal(t)); n != 2 {
				t.Fatalf("the journal holds %d jobs after the killed apply, want 2: x's (its create returned) and y's", n)
			}
			clock.advance(2 * time.Hour)
			// A plan shows what the apply settles (the jobs the state does
			// not hold: Terraform's local file holds x), and settles nothing.
			held := map[string]bool{}
			for _, s := range c.state(t) {
				held[s.ID] = true
			}
			out, err := c.run("plan", "-no-color", "-input=false")
			if err != nil {
				t.Fatalf("plan: %v\n%s", err, out)
			}
			for _, j := range c.e.Jobs() {
				if !held[j.ID] {
					expectOutput(t, out, "Import job "+j.ID+" will be resumed")
				}
			}
			if n := len(c.journal(t)); n != 2-len(held) {
				t.Fatalf("the journal holds %d jobs after a plan, want %d: the state holds %v", n, 2-len(held), held)
			}
			c.apply(t, true)
			jobs := c.e.Jobs()
			if len(jobs) != 2 {
				t.Fatalf("%d jobs after the next apply, want 2 (none new): %+v", len(jobs), jobs)
			}
			byRows := map[string]string{}
			for _, j := range jobs {
				byRows[j.Upload.Rows[0][1]] = j.ID
			}
			s := c.state(t)
			if s[x("x")].ID != byRows["1"] || s[x("y")].ID != byRows["2"] {
				t.Errorf("the state holds x=%s y=%s, want x=%s (rows A) y=%s (rows B)", s[x("x")].ID, s[x("y")].ID, byRows["1"], byRows["2"])
			}
			if j := c.journal(t); len(j) != 0 {
				t.Errorf("the journal still holds %v after an apply that ended, want nothing", j)
			}
		})
	}
}

// completeAt lets the jobs complete once the emulator has n: it moves
// clock on then, in the background (for a minute at most), so that an
// apply that starts the n-th job and waits for it sees it complete.
func (c *binaryCLI) completeAt(clock *testClock, n int) {
	go func() {
		for deadline := time.Now().Add(time.Minute); len(c.e.Jobs()) < n && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		clock.advance(2 * time.Hour)
	}()
}
