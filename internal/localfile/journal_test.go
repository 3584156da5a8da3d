package localfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestJournal_claimOldestFirstByKey(t *testing.T) {
	j, err := OpenJournal(filepath.Join(t.TempDir(), "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, e := range []JournalEntry{{Key: "k1", JobID: "2"}, {Key: "k1", JobID: "1"}, {Key: "k2", JobID: "3"}} {
		e.Written = t0.Add(time.Duration(2-i) * time.Second) // job 1 written first
		if err := j.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"1", "2"} {
		e, ok, err := j.Claim("k1", nil)
		if err != nil || !ok || e.JobID != want {
			t.Fatalf("Claim(k1) = %+v, %v, %v; want job %s", e, ok, err, want)
		}
	}
	if e, ok, _ := j.Claim("k1", nil); ok {
		t.Fatalf("Claim(k1) after both were claimed = %+v", e)
	}
	if e, ok, _ := j.Claim("k2", nil); !ok || e.JobID != "3" {
		t.Fatalf("Claim(k2) = %+v, %v; want job 3", e, ok)
	}
}

func TestJournal_forgetRemovesEveryEntryOfTheJob(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	for _, e := range []JournalEntry{{Key: "a", JobID: "7"}, {Key: "b", JobID: "7"}, {Key: "a", JobID: "8"}} {
		if err := j.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Forget("7"); err != nil {
		t.Fatal(err)
	}
	es, err := j.Entries()
	if err != nil || len(es) != 1 || es[0].JobID != "8" {
		t.Fatalf("entries after Forget(7) = %+v, %v; want job 8 alone", es, err)
	}
}

// Several claimers of one entry: exactly one gets it.
func TestJournal_concurrentClaimsTakeEachEntryOnce(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	const n = 20
	for i := range n {
		if err := j.Add(JournalEntry{Key: "k", JobID: string(rune('a' + i))}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e, ok, err := j.Claim("k", nil); err == nil && ok {
				mu.Lock()
				got[e.JobID]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(got) != n {
		t.Fatalf("%d distinct jobs claimed, want %d", len(got), n)
	}
	for id, c := range got {
		if c != 1 {
			t.Errorf("job %s claimed %d times", id, c)
		}
	}
}

func TestJournal_rejectsJobIDsThatNameOtherFiles(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	for _, id := range []string{"", "../x", "a/b", "a.b"} {
		if err := j.Add(JournalEntry{Key: "k", JobID: id}); err == nil {
			t.Errorf("Add(job %q) succeeded", id)
		}
	}
}

func TestJournal_ignoresTornAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	j, _ := OpenJournal(dir)
	if err := os.WriteFile(filepath.Join(dir, keyPrefix("k")+"1-9"+journalSuffix), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := j.Add(JournalEntry{Key: "k", JobID: "5"}); err != nil {
		t.Fatal(err)
	}
	if e, ok, err := j.Claim("k", nil); err != nil || !ok || e.JobID != "5" {
		t.Fatalf("Claim = %+v, %v, %v; want job 5 past the torn file", e, ok, err)
	}
}

func TestJournal_claimSkipsWhatSkipRejects(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	_ = j.Add(JournalEntry{Key: "k", JobID: "1", Holder: 42})
	_ = j.Add(JournalEntry{Key: "k", JobID: "2"})
	held := func(e JournalEntry) bool { return e.Holder != 0 }
	if e, ok, err := j.Claim("k", held); err != nil || !ok || e.JobID != "2" {
		t.Fatalf("Claim = %+v, %v, %v; want job 2, not the held job 1", e, ok, err)
	}
	if _, ok, _ := j.Claim("k", held); ok {
		t.Fatal("the held job was claimed")
	}
	if e, ok, _ := j.Claim("k", nil); !ok || e.JobID != "1" || e.Holder != 42 {
		t.Fatalf("Claim(nil) = %+v, %v; want job 1 held by 42", e, ok)
	}
}

func TestProcessAlive(t *testing.T) {
	if !ProcessAlive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if ProcessAlive(cmd.Process.Pid) {
		t.Skip("the pid of a process that ended was reused at once")
	}
	if ProcessAlive(0) || ProcessAlive(-1) {
		t.Fatal("pid 0 or -1 is alive")
	}
}
