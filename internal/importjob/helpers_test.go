package importjob

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// Helpers shared by the package's tests: jobs on the tests' service,
// imports of each kind, the journal's fake world (a store in memory shared
// by journals that stand for processes, and processes that run or are
// gone as a test says; no files, no Terraform), and assertions on what the
// rules decide.

// testService is the address of the service the tests' jobs run on.
const testService = "https://hub.example"

// ref names job id on the tests' service ("": no job).
func ref(id string) JobRef {
	if id == "" {
		return JobRef{}
	}
	return NewJobRef(testService, id)
}

// refs names each job id on the tests' service.
func refs(ids ...string) []JobRef {
	out := make([]JobRef, len(ids))
	for i, id := range ids {
		out[i] = ref(id)
	}
	return out
}

// keyOf is i's key on the tests' service.
func keyOf(i Import) Key { return i.Definition().KeyOn(testService) }

// killed is an entry a killed apply left: nothing holds it any more.
func killed(job string, key Key, prior string) Entry {
	return Entry{Job: ref(job), Key: key, Prior: ref(prior)}
}

// procs are the fake system's processes: a pid runs while it is true.
type procs map[int]bool

func (p procs) alive(pid int, _ uint64) bool { return p[pid] }

// world is a journal directory (a shared store) and the processes that
// run on the fake system.
type world struct {
	store *MemoryStore
	procs procs
	next  int // the next run's pids
}

func newWorld() *world { return &world{store: NewMemoryStore(), procs: procs{}, next: 10} }

// run is a new provider process, of a new CLI run, on w's journal.
func (w *world) run() *Journal {
	w.next += 10
	self := Self{PID: w.next + 1, Run: Run{PID: w.next, Start: 7}}
	w.procs[self.PID], w.procs[self.Run.PID] = true, true
	return NewJournal(w.store, self, w.procs.alive)
}

// kill ends j's process and its CLI run.
func (w *world) kill(j *Journal) { w.procs[j.self.PID], w.procs[j.self.Run.PID] = false, false }

// settle settles a create of key; the job it claims ("" none).
func settle(t *testing.T, j *Journal, key Key) (*Settled, string) {
	t.Helper()
	s, err := j.SettleCreate(key)
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Claim.ID()
}

// start is a create of key that starts job id and holds it.
func start(t *testing.T, j *Journal, key Key, id string) *Settled {
	t.Helper()
	s, claimed := settle(t, j, key)
	if claimed != "" {
		t.Fatalf("a create of %q settled %s, want it to start %s", key, claimed, id)
	}
	if err := j.Started(s, ref(id)); err != nil {
		t.Fatal(err)
	}
	return s
}

// killedApply is a run that carried out change (the replacement of
// prior, "" for new objects) of key, started jobs ids, and was killed
// before any state got them.
func (w *world) killedApply(t *testing.T, key Key, prior string, ids ...string) {
	t.Helper()
	j := w.run()
	for _, id := range ids {
		if prior != "" {
			j.NoteReplacement(key, ref(prior), false)
		}
		start(t, j, key, id)
	}
	w.kill(j)
}

// nextRunSettles is the job a new object's create of key settles in a
// new run ("" none).
func (w *world) nextRunSettles(t *testing.T, key Key) string {
	t.Helper()
	_, id := settle(t, w.run(), key)
	return id
}

// fileImport is a file import with the given parts; path, name and part
// name fixed.
func fileImport(template, sum, format, encoding string) Import {
	return Import{Template: Known(template), Kind: KindFile, ContentSHA256: Known(sum),
		File: &File{Path: Known("a.csv"), Name: Known("a.csv"), PartName: Known("file"), Format: Known(format), Encoding: Known(encoding)}}
}

// expectReplace asserts that the plan from prior to next replaces the job
// for exactly parts (none: an update in place).
func expectReplace(t *testing.T, c Change, parts ...Part) ChangePlan {
	t.Helper()
	p := PlanChange(c)
	if !slices.Equal(p.Replace, parts) || p.ReplaceForSubmit || p.ReplaceFailed {
		t.Errorf("PlanChange replaces for %v (submit %v, failed %v), want %v", p.Replace, p.ReplaceForSubmit, p.ReplaceFailed, parts)
	}
	return p
}

// rowsImport is rows of bytes sum to template.
func rowsImport(template, sum string) Import {
	return Import{Template: Known(template), Kind: KindRows, ContentSHA256: Known(sum)}
}

// inputsImport is inputs whose hash (covering each input) is sum.
func inputsImport(sum string) Import {
	return Import{Template: Known("t1"), Kind: KindInputs, ContentSHA256: Known(sum)}
}

// tainted is the destroy of a tainted job of prior, in status, replaced by
// a create of next.
func tainted(prior Import, status jobstatus.JobStatus, next Import) Replaced {
	return Replaced{Key: keyOf(prior), Status: status, Planned: keyOf(next)}
}

// expectResume asserts what a create does with the job it settles.
func expectResume(t *testing.T, r Resumed, want Resumption) {
	t.Helper()
	if got := Resume(r); got != want {
		t.Errorf("Resume(%+v) = %+v, want %+v", r, got, want)
	}
}

// expectJobs asserts how many jobs a create starts.
func expectJobs(t *testing.T, entries []Entry, c Create, status jobstatus.JobStatus, want int) {
	t.Helper()
	if got := jobsStarted(entries, c, status); got != want {
		t.Errorf("Settle(%+v, %+v) starts %d jobs, want %d", entries, c, got, want)
	}
}

// expectDrops asserts which entries drops names, with which reason.
func expectDrops(t *testing.T, drops []Drop, want map[string]Reason) {
	t.Helper()
	if len(drops) != len(want) {
		t.Errorf("drops %+v, want %v", drops, want)
		return
	}
	for _, d := range drops {
		if r, ok := want[d.Entry.Job.ID()]; !ok || r != d.Reason {
			t.Errorf("dropped %s for reason %d, want %v", d.Entry.Job, d.Reason, want)
		}
	}
}

// sum is the SHA-256 of s, computed apart from the rules.
func sum(s string) string {
	b := sha256.Sum256([]byte(s))
	return hex.EncodeToString(b[:])
}

// jobsStarted is how many jobs the create of c starts with entries in the
// journal: none when it settles one that did not end without importing.
func jobsStarted(entries []Entry, c Create, status jobstatus.JobStatus) int {
	s := Settle(entries, c)
	if s.Claim == nil || Resume(Resumed{Status: status}).StartNew {
		return 1
	}
	return 0
}
