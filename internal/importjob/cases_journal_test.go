package importjob

import (
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// The guide's table of how long a journal entry lives
// (templates/guides/exactly-once.md.tmpl, "How long an entry
// lives"): one case per row.

func entryCases() []rowCase {
	key := keyOf(rowsImport("t1", "A"))
	other := keyOf(rowsImport("t1", "B"))
	return []rowCase{
		{"a refresh or a plan finds its job in the state", func(t *testing.T) {
			held := Entry{Job: ref("1"), Key: key, RunAlive: true, Held: true}
			if got := Found([]Entry{held, killed("2", key, "")}, ref("1")); len(got) != 1 || got[0].Job != ref("1") {
				t.Errorf("Found = %+v, want job 1's entry, whoever holds it", got)
			}
			j := newWorld().run()
			start(t, j, key, "1")
			if err := j.StateHolds(ref("1")); err != nil {
				t.Fatal(err)
			}
			if es, _ := j.entries(); len(es) != 0 {
				t.Errorf("entries after a refresh found job 1 = %+v, want none", es)
			}
		}},
		{"its create returned, and Terraform closed the provider at the end of the apply (Terraform then writes the state)", func(t *testing.T) {
			asUsual := Entry{Job: ref("1"), Key: key, RunAlive: true, ReturnedHere: true}
			cutShort := Entry{Job: ref("2"), Key: key, RunAlive: true}
			if got := AtClose([]Entry{asUsual, cutShort}); len(got) != 1 || got[0].Job != ref("1") {
				t.Errorf("AtClose = %+v, want job 1 alone (job 2's create was cut short)", got)
			}
			j := newWorld().run()
			_ = j.Release(start(t, j, key, "1"), false)
			_ = j.Release(start(t, j, key, "2"), true)
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			if es, _ := j.entries(); len(es) != 1 || es[0].Job != ref("2") {
				t.Errorf("entries after Close = %+v, want job 2 alone", es)
			}
		}},
		{"the next apply carries out the same change (above)", func(t *testing.T) {
			// The same object as new, or the replacement of the same job.
			expectJobs(t, []Entry{killed("1", key, "")}, Create{Key: key}, jobstatus.StatusRunning, 0)
			expectJobs(t, []Entry{killed("1", key, "P")}, Create{Key: key}, jobstatus.StatusRunning, 0)
			expectJobs(t, []Entry{killed("1", key, "P")}, Create{Key: key, Replaces: ref("P")}, jobstatus.StatusRunning, 0)
			expectJobs(t, []Entry{killed("1", key, "")}, Create{Key: key, Replaces: ref("Q")}, jobstatus.StatusRunning, 1)
		}},
		{"the job ended in `ERROR`, `CANCELLED` or `EXPIRED` before an apply would resume it, or the service no longer knows it", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusError, jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				expectJobs(t, []Entry{killed("1", key, "")}, Create{Key: key}, s, 1)
			}
			expectResume(t, Resumed{Gone: true}, Resumption{StartNew: true})
		}},
		{"the old job N it was to replace is destroyed, or replaced with other data", func(t *testing.T) {
			left := []Entry{killed("1", key, "N")}
			expectDrops(t, Destroy(left, ref("N")), map[string]Reason{"1": PriorDestroyed})
			expectDrops(t, Settle(left, Create{Key: other, Replaces: ref("N")}).Drops, map[string]Reason{"1": PriorReplaced})
		}},
		{"an etl_import that may be its resource (above) is replaced (with any data: with the same, a new job imports it) or destroyed", func(t *testing.T) {
			// Job 1 killed; the resource, created anew with other data,
			// got job 2, which the entry notes.
			s := Settle([]Entry{killed("1", key, "")}, Create{Key: other})
			if len(s.MayBe) != 1 || s.MayBe[0] != ref("1") {
				t.Fatalf("a new object of other data notes %v, want job 1", s.MayBe)
			}
			left := []Entry{{Job: ref("1"), Key: key, MayBe: refs("2")}}
			replaced := Settle(left, Create{Key: key, Replaces: ref("2")})
			if replaced.Claim != nil {
				t.Errorf("the replacement with the same data settled %s, want a new job", replaced.Claim.Job)
			}
			expectDrops(t, replaced.Drops, map[string]Reason{"1": MovedOn})
			expectDrops(t, Destroy(left, ref("2")), map[string]Reason{"1": MovedOn})
		}},
		{"`terraform plan`, `terraform apply -refresh-only`, an apply with `-target` that leaves its resource out", func(t *testing.T) {
			left := []Entry{killed("1", key, "")}
			if e := Preview(left, Create{Key: key}); e == nil || e.Job != ref("1") {
				t.Errorf("a plan of the same change previews %+v, want job 1", e)
			}
			if got := Found(left, ref("other")); len(got) != 0 {
				t.Errorf("a refresh of another job removes %+v", got)
			}
			if e := Preview(left, Create{Key: key}); e == nil {
				t.Error("the entry is gone after a plan")
			}
		}},
		{"the data directory is deleted (a new CI runner, `rm -rf .terraform`)", func(t *testing.T) {
			expectJobs(t, nil, Create{Key: key}, "", 1)
		}},
	}
}
