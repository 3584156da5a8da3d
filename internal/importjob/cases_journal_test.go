package importjob

import (
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// The guide's table of how long a journal entry lives
// (templates/guides/exactly-once.md.tmpl, "How long an entry
// lives"): one case per row.

// expectDrops asserts which entries drops names, with which reason.
func expectDrops(t *testing.T, drops []Drop, want map[string]Reason) {
	t.Helper()
	if len(drops) != len(want) {
		t.Errorf("drops %+v, want %v", drops, want)
		return
	}
	for _, d := range drops {
		if r, ok := want[d.Entry.Job]; !ok || r != d.Reason {
			t.Errorf("dropped %s for reason %d, want %v", d.Entry.Job, d.Reason, want)
		}
	}
}

func entryCases() []rowCase {
	key := rowsImport("t1", "A").Definition().Key()
	other := rowsImport("t1", "B").Definition().Key()
	return []rowCase{
		{"a refresh or a plan finds its job in the state", func(t *testing.T) {
			held := Entry{Job: "1", Key: key, RunAlive: true, Held: true}
			if got := Found([]Entry{held, killed("2", key, "")}, "1"); len(got) != 1 || got[0].Job != "1" {
				t.Errorf("Found = %+v, want job 1's entry, whoever holds it", got)
			}
		}},
		{"its create returned, and Terraform closed the provider at the end of the apply (Terraform then writes the state)", func(t *testing.T) {
			asUsual := Entry{Job: "1", Key: key, RunAlive: true, ReturnedHere: true}
			cutShort := Entry{Job: "2", Key: key, RunAlive: true}
			if got := AtClose([]Entry{asUsual, cutShort}); len(got) != 1 || got[0].Job != "1" {
				t.Errorf("AtClose = %+v, want job 1 alone (job 2's create was cut short)", got)
			}
		}},
		{"the next apply carries out the same change (above)", func(t *testing.T) {
			// The same object as new, or the replacement of the same job.
			expectJobs(t, []Entry{killed("1", key, "")}, Create{Key: key}, jobstatus.StatusRunning, 0)
			expectJobs(t, []Entry{killed("1", key, "P")}, Create{Key: key}, jobstatus.StatusRunning, 0)
			expectJobs(t, []Entry{killed("1", key, "P")}, Create{Key: key, Replaces: "P"}, jobstatus.StatusRunning, 0)
			expectJobs(t, []Entry{killed("1", key, "")}, Create{Key: key, Replaces: "Q"}, jobstatus.StatusRunning, 1)
		}},
		{"the job ended in `ERROR`, `CANCELLED` or `EXPIRED` before an apply would resume it, or the service no longer knows it", func(t *testing.T) {
			for _, s := range []jobstatus.JobStatus{jobstatus.StatusError, jobstatus.StatusCancelled, jobstatus.StatusExpired} {
				expectJobs(t, []Entry{killed("1", key, "")}, Create{Key: key}, s, 1)
			}
			expectResume(t, Resumed{Gone: true}, Resumption{StartNew: true})
		}},
		{"the old job N it was to replace is destroyed, or replaced with other data", func(t *testing.T) {
			left := []Entry{killed("1", key, "N")}
			expectDrops(t, Destroy(left, "N"), map[string]Reason{"1": PriorDestroyed})
			expectDrops(t, Settle(left, Create{Key: other, Replaces: "N"}).Drops, map[string]Reason{"1": PriorReplaced})
		}},
		{"an etl_import that may be its resource (above) is replaced (with any data: with the same, a new job imports it) or destroyed", func(t *testing.T) {
			// Job 1 killed; the resource, created anew with other data,
			// got job 2, which the entry notes.
			s := Settle([]Entry{killed("1", key, "")}, Create{Key: other})
			if len(s.MayBe) != 1 || s.MayBe[0] != "1" {
				t.Fatalf("a new object of other data notes %v, want job 1", s.MayBe)
			}
			left := []Entry{{Job: "1", Key: key, MayBe: []string{"2"}}}
			replaced := Settle(left, Create{Key: key, Replaces: "2"})
			if replaced.Claim != nil {
				t.Errorf("the replacement with the same data settled %s, want a new job", replaced.Claim.Job)
			}
			expectDrops(t, replaced.Drops, map[string]Reason{"1": MovedOn})
			expectDrops(t, Destroy(left, "2"), map[string]Reason{"1": MovedOn})
		}},
		{"`terraform plan`, `terraform apply -refresh-only`, an apply with `-target` that leaves its resource out", func(t *testing.T) {
			left := []Entry{killed("1", key, "")}
			if e := Preview(left, Create{Key: key}); e == nil || e.Job != "1" {
				t.Errorf("a plan of the same change previews %+v, want job 1", e)
			}
			if got := Found(left, "other job"); len(got) != 0 {
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
