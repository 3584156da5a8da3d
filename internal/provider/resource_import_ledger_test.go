package provider

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// ref names job id on the test's service.
func ref(id string) jobRef { return jobRef{"http://127.0.0.1:1", id} }

// goneRun is a run whose CLI no longer runs (no process has this pid).
var goneRun = localfile.Run{PID: 1 << 30}

// ledgers returns a ledger in memory and one with a journal.
func ledgers(t *testing.T) map[string]*jobLedger {
	ctx := context.Background()
	return map[string]*jobLedger{"memory": newJobLedger(ctx, ""), "journal": newJobLedger(ctx, filepath.Join(t.TempDir(), "j"))}
}

// claim settles a new object's Create of key; the job id it settles.
func claim(l *jobLedger, key string) (string, bool) {
	s := l.settle(context.Background(), importjob.Create{Key: key})
	if s.Claim == nil {
		return "", false
	}
	return idOf(s.Claim.Job), true
}

// nextRun is a ledger on l's journal in a later run, once l's run is gone.
func nextRun(t *testing.T, l *jobLedger) *jobLedger {
	t.Helper()
	es, err := l.journal.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es { // the run that wrote them ended
		e.Run = goneRun
		if _, err := l.journal.Put(e); err != nil {
			t.Fatal(err)
		}
	}
	return newJobLedger(context.Background(), l.journal.Dir())
}

// A job a running Create holds is never claimed by another Create of the
// same definition (two instances with identical data); a job handed over
// is claimed once.
func TestJobLedger_claimsOnlyWhatNoCreateHolds(t *testing.T) {
	for name, l := range ledgers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			l.hold(ctx, "k", ref("running"), "")
			if id, ok := claim(l, "k"); ok {
				t.Fatalf("claimed %s, which a running Create holds", id)
			}
			l.handOver(ctx, "k", ref("tainted"))
			if id, ok := claim(l, "k"); !ok || id != "tainted" {
				t.Fatalf("claim = %s, %v; want the job handed over", id, ok)
			}
			if id, ok := claim(l, "k"); ok {
				t.Fatalf("claimed %s twice", id)
			}
			if id, ok := claim(l, "other"); ok {
				t.Fatalf("claimed %s for another definition", id)
			}
		})
	}
}

// In memory, a job whose request was cancelled is claimed by the next
// Create of its key, and one returned to Terraform is forgotten.
func TestJobLedger_memoryKeepsWhatACancelledRequestLeft(t *testing.T) {
	ctx := context.Background()
	l := newJobLedger(ctx, "")
	l.hold(ctx, "k", ref("done"), "")
	l.release(ctx, ref("done"))
	if id, ok := claim(l, "k"); ok {
		t.Fatalf("claimed %s, which Create returned", id)
	}
	l.hold(ctx, "k", ref("cut"), "")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	l.release(cancelled, ref("cut"))
	if id, ok := claim(l, "k"); !ok || id != "cut" {
		t.Fatalf("claim = %s, %v; want the job whose request was cancelled", id, ok)
	}
}

// In the journal, a job returned to a run stays that run's while it runs
// (another Create of the same apply never takes it), and is claimed by
// the next run once that run is gone: the state it was returned to may
// never have been written (a remote backend, a killed CLI). Terraform
// closing the provider forgets a job returned as usual (Closed), not one
// whose Create was cut short (a second Ctrl-C closes the provider, and
// exits without writing the state).
func TestJobLedger_journalKeepsAReturnedJobUntilItsRunEnds(t *testing.T) {
	ctx := context.Background()
	l := newJobLedger(ctx, filepath.Join(t.TempDir(), "j"))
	l.hold(ctx, "k", ref("1"), "")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	l.release(cancelled, ref("1")) // Terraform stopped it, or went away
	l.hold(ctx, "k", ref("2"), "")
	l.release(ctx, ref("2")) // returned as usual
	if id, ok := claim(l, "k"); ok {
		t.Fatalf("claimed %s in the run it was returned to", id)
	}
	es, _ := l.journal.Entries()
	if len(es) != 2 || es[0].Holder != 0 || !es[0].Returned || es[0].Run != l.run {
		t.Fatalf("journal = %+v; want both jobs, held by nobody, returned to this run", es)
	}
	next := nextRun(t, l)
	if id, ok := claim(next, "k"); !ok || id != "1" {
		t.Fatalf("the next run claimed %s, %v; want job 1", id, ok)
	}
	l.closeReturned(ctx) // what Closed does for each ledger of the process
	if es, _ := l.journal.Entries(); len(es) != 0 {
		t.Fatalf("journal after Closed = %+v; want job 2 forgotten", es)
	}
	l.hold(ctx, "k", ref("3"), "")
	l.release(cancelled, ref("3"))
	l.closeReturned(ctx)
	if es, _ := l.journal.Entries(); len(es) != 1 || es[0].JobID != ref("3").String() {
		t.Fatalf("journal after Closed = %+v; want job 3 kept, whose Create was cut short", es)
	}
}

// A job a refresh, a plan or a Delete finds in a state is forgotten.
func TestJobLedger_forget(t *testing.T) {
	for name, l := range ledgers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			l.handOver(ctx, "k", ref("1"))
			l.found(ctx, ref("1"))
			if id, ok := claim(l, "k"); ok {
				t.Fatalf("claimed forgotten job %s", id)
			}
		})
	}
}

// The journal outlives the process: a new ledger on the same directory
// finds a job whose holder is gone, a job handed over, and the entry of an
// earlier release (no run, no change recorded), which it settles as a new
// object's: a replacement takes only the job handed over.
func TestJobLedger_journalOutlivesTheProcess(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "j")
	l := newJobLedger(ctx, dir)
	_, _ = l.journal.Put(localfile.JournalEntry{Key: "k", JobID: ref("orphan").String(), Holder: 1 << 30, Run: goneRun})
	_, _ = l.journal.Put(localfile.JournalEntry{Key: "k", JobID: ref("legacy").String(), Holder: 1 << 30})
	l.handOver(ctx, "k", ref("handed"))
	next := newJobLedger(ctx, dir)
	got := map[string]bool{}
	for range 3 {
		if s := next.settle(ctx, importjob.Create{Key: "k", Replaces: ref("live").String()}); s.Claim != nil {
			got[idOf(s.Claim.Job)] = true
		}
	}
	if len(got) != 1 || !got["handed"] {
		t.Fatalf("a replacement claimed %v; want the job handed over alone", got)
	}
	for range 3 {
		if id, ok := claim(next, "k"); ok {
			got[id] = true
		}
	}
	if len(got) != 3 || !got["orphan"] || !got["legacy"] {
		t.Fatalf("new objects claimed %v; want the orphan and the earlier release's entry too", got)
	}
}

// A replacement drops, with its reasons, the entries it makes impossible:
// the same job replaced with other data, and entries its object may be the
// resource of; a new object that settles nothing notes its job in the
// entries it may be the resource of; a destroy drops what it makes
// impossible.
func TestJobLedger_dropsAndMayBe(t *testing.T) {
	ctx := context.Background()
	l := newJobLedger(ctx, filepath.Join(t.TempDir(), "j"))
	put := func(job, key, prior string) {
		_, _ = l.journal.Put(localfile.JournalEntry{Key: key, JobID: ref(job).String(), Prior: prior, Run: goneRun})
	}
	put("killedA", "A", "")
	put("killedB", "B", ref("P").String())
	s := l.settle(ctx, importjob.Create{Key: "C"})
	l.mayBe(ctx, s.MayBe, ref("newC"))
	if e, _ := l.entry(ref("killedA").String()); !slices.Equal(e.MayBe, []string{ref("newC").String()}) {
		t.Fatalf("killedA notes %v; want the new object's job", e.MayBe)
	}
	s = l.settle(ctx, importjob.Create{Key: "C", Replaces: ref("newC").String()})
	if len(s.Drops) != 2 || s.Claim != nil {
		t.Fatalf("a replacement of newC settled %+v; want killedA and killedB (newC may be their resource) dropped", s)
	}
	if es, _ := l.journal.Entries(); len(es) != 0 {
		t.Fatalf("journal = %+v; want the dropped entries gone", es)
	}
	put("killedD", "D", ref("Q").String())
	if d := l.destroyed(ctx, ref("Q")); len(d) != 1 || d[0].Reason != importjob.PriorDestroyed {
		t.Fatalf("destroying Q dropped %+v; want killedD, whose change replaced Q", d)
	}
}

// A replacement's Create learns the job it replaces, and whether its
// object is tainted, from its Delete (or the plan made again at apply)
// once: a second note of a job whose note a Create took is ignored (the
// Delete after a create_before_destroy).
func TestJobLedger_replacedNotes(t *testing.T) {
	l := newJobLedger(context.Background(), "")
	l.noteReplaced("k", ref("P"), false)
	l.noteReplaced("", ref("Q"), true)
	if got := l.replacedFor("k"); got != (importjob.Create{Key: "k", Replaces: ref("P").String()}) {
		t.Fatalf("replacedFor(k) = %+v, want P, live", got)
	}
	if got := l.replacedFor("other"); got != (importjob.Create{Key: "other", Replaces: ref("Q").String(), Tainted: true}) {
		t.Fatalf("replacedFor(other) = %+v, want Q, tainted, noted with no key", got)
	}
	l.noteReplaced("k", ref("P"), false)
	if got := l.replacedFor("k"); got != (importjob.Create{Key: "k"}) {
		t.Fatalf("replacedFor(k) = %+v after P's note was taken, want none", got)
	}
}

func TestJournalDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := journalDir(getenv); got != "" {
		t.Fatalf("no data directory: %q, want none", got)
	}
	if err := os.Mkdir(".terraform", 0o700); err != nil {
		t.Fatal(err)
	}
	want := func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
	if got := journalDir(getenv); got != want(".terraform", journalDirName, "default") {
		t.Fatalf("journalDir = %q", got)
	}
	if err := os.WriteFile(filepath.Join(".terraform", "environment"), []byte("staging\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := journalDir(getenv); got != want(".terraform", journalDirName, "staging") {
		t.Fatalf("journalDir with a selected workspace = %q", got)
	}
	env["TF_WORKSPACE"] = "a/b"
	if got := journalDir(getenv); got != want(".terraform", journalDirName, "a%2Fb") {
		t.Fatalf("journalDir with TF_WORKSPACE = %q", got)
	}
	if err := os.Mkdir("data", 0o700); err != nil {
		t.Fatal(err)
	}
	env["TF_DATA_DIR"] = "data"
	if got := journalDir(getenv); got != want("data", journalDirName, "a%2Fb") {
		t.Fatalf("journalDir with TF_DATA_DIR = %q", got)
	}
}

// Job ids are unique per service only: a job of one service is never
// claimed, held or forgotten for another's job of the same id.
func TestJobLedger_jobsOfTwoServices(t *testing.T) {
	for name, l := range ledgers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			a, b := jobRef{"http://a", "1"}, jobRef{"http://b", "1"}
			l.hold(ctx, jobKey("http://a", "d"), a, "")
			l.handOver(ctx, jobKey("http://b", "d"), b)
			l.found(ctx, a)
			if id, ok := claim(l, jobKey("http://b", "d")); !ok || id != "1" {
				t.Fatalf("claim on b = %s, %v: forgetting a's job 1 lost b's", id, ok)
			}
			if id, ok := claim(l, jobKey("http://a", "d")); ok {
				t.Fatalf("claimed %s on a, which was forgotten", id)
			}
		})
	}
}
