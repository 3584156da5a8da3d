package provider

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// ref names job id on the test's service.
func ref(id string) jobRef { return jobRef{"http://127.0.0.1:1", id} }

// ledgers returns a ledger in memory and one with a journal.
func ledgers(t *testing.T) map[string]*jobLedger {
	ctx := context.Background()
	return map[string]*jobLedger{"memory": newJobLedger(ctx, ""), "journal": newJobLedger(ctx, filepath.Join(t.TempDir(), "j"))}
}

// A job a running Create holds is never claimed by another Create of the
// same definition (two instances with identical data); a job handed over,
// or left by a request that was cancelled, is claimed once.
func TestJobLedger_claimsOnlyWhatNoCreateHolds(t *testing.T) {
	for name, l := range ledgers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			l.hold(ctx, "k", ref("running"))
			if id, ok := l.claim(ctx, "k"); ok {
				t.Fatalf("claimed %s, which a running Create holds", id)
			}
			l.handOver(ctx, "k", ref("tainted"))
			if id, ok := l.claim(ctx, "k"); !ok || id != "tainted" {
				t.Fatalf("claim = %s, %v; want the job handed over", id, ok)
			}
			if id, ok := l.claim(ctx, "k"); ok {
				t.Fatalf("claimed %s twice", id)
			}
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			l.release(cancelled, ref("running")) // Terraform went away
			if id, ok := l.claim(ctx, "k"); !ok || id != "running" {
				t.Fatalf("claim = %s, %v; want the job whose request was cancelled", id, ok)
			}
			l.hold(ctx, "k", ref("done"))
			l.release(ctx, ref("done")) // returned to Terraform
			if id, ok := l.claim(ctx, "k"); ok {
				t.Fatalf("claimed %s, which Create returned", id)
			}
			if id, ok := l.claim(ctx, "other"); ok {
				t.Fatalf("claimed %s for another definition", id)
			}
		})
	}
}

// A job a refresh or a Delete finds in a state is forgotten.
func TestJobLedger_forget(t *testing.T) {
	for name, l := range ledgers(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			l.handOver(ctx, "k", ref("1"))
			l.forget(ctx, ref("1"))
			if id, ok := l.claim(ctx, "k"); ok {
				t.Fatalf("claimed forgotten job %s", id)
			}
		})
	}
}

// The journal outlives the process: a new ledger on the same directory
// finds a job whose holder is gone.
func TestJobLedger_journalOutlivesTheProcess(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "j")
	l := newJobLedger(ctx, dir)
	l.add(ctx, "k", ref("orphan").String(), 1<<30) // a pid no process has
	l.handOver(ctx, "k", ref("handed"))
	next := newJobLedger(ctx, dir)
	got := map[string]bool{}
	for range 3 {
		if id, ok := next.claim(ctx, "k"); ok {
			got[id] = true
		}
	}
	if len(got) != 2 || !got["orphan"] || !got["handed"] {
		t.Fatalf("claimed %v; want the orphan and the job handed over, once each", got)
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
			l.hold(ctx, jobKey("http://a", "d"), a)
			l.handOver(ctx, jobKey("http://b", "d"), b)
			l.forget(ctx, a)
			if id, ok := l.claim(ctx, jobKey("http://b", "d")); !ok || id != "1" {
				t.Fatalf("claim on b = %s, %v: forgetting a's job 1 lost b's", id, ok)
			}
			if id, ok := l.claim(ctx, jobKey("http://a", "d")); ok {
				t.Fatalf("claimed %s on a, which was forgotten", id)
			}
		})
	}
}

// A job whose request was cancelled is held by nobody in the journal: the
// next process claims it even while the one that started it lives on.
func TestJobLedger_cancelledJobIsHeldByNobody(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "j")
	l := newJobLedger(ctx, dir)
	l.hold(ctx, "k", ref("1"))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	l.release(cancelled, ref("1"))
	es, err := l.journal.Entries()
	if err != nil || len(es) != 1 || es[0].Holder != 0 || es[0].Key != "k" {
		t.Fatalf("journal after a cancelled request: %+v, %v; want the job, held by nobody", es, err)
	}
}
