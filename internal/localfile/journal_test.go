package localfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
)

// take takes the oldest entry of key that skip does not reject, as a
// caller of Entries and Take does.
func take(t *testing.T, j *Journal, key string, skip func(JournalEntry) bool) (JournalEntry, bool) {
	t.Helper()
	es, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Key != key || skip != nil && skip(e) {
			continue
		}
		if ok, err := j.Take(e); err != nil {
			t.Fatal(err)
		} else if ok {
			return e, true
		}
	}
	return JournalEntry{}, false
}

func TestJournal_entriesOldestFirst(t *testing.T) {
	j, err := OpenJournal(filepath.Join(t.TempDir(), "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, e := range []JournalEntry{{Key: "k1", JobID: "2"}, {Key: "k1", JobID: "1"}, {Key: "k2", JobID: "3"}} {
		e.Written = t0.Add(time.Duration(2-i) * time.Second) // job 1 written first
		if _, err := j.Put(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"1", "2"} {
		if e, ok := take(t, j, "k1", nil); !ok || e.JobID != want {
			t.Fatalf("take(k1) = %+v, %v; want job %s", e, ok, want)
		}
	}
	if e, ok := take(t, j, "k1", nil); ok {
		t.Fatalf("take(k1) after both were taken = %+v", e)
	}
	if e, ok := take(t, j, "k2", nil); !ok || e.JobID != "3" {
		t.Fatalf("take(k2) = %+v, %v; want job 3", e, ok)
	}
}

// Put replaces the job's entry, whatever its key or layout, and keeps
// every field.
func TestJournal_putReplacesTheJobsEntry(t *testing.T) {
	dir := t.TempDir()
	j, _ := OpenJournal(dir)
	legacy := `{"key":"k","job_id":"7","written":"2026-01-01T00:00:00Z","holder":42}`
	if err := os.WriteFile(filepath.Join(dir, keyPrefix("k")+"01767225600000000000-7"+journalSuffix), []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	if es, _ := j.Entries(); len(es) != 1 || es[0].Holder != 42 || es[0].Run != (Run{}) {
		t.Fatalf("the earlier layout reads as %+v", es)
	}
	want := JournalEntry{Key: "k", JobID: "7", Prior: "5", Run: Run{PID: 9, Start: 3}, HandedOver: true, Returned: true, MayBe: []string{"8"}}
	if _, err := j.Put(want); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Put(JournalEntry{Key: "other", JobID: "8"}); err != nil {
		t.Fatal(err)
	}
	es, err := j.Entries()
	if err != nil || len(es) != 2 {
		t.Fatalf("entries = %+v, %v; want jobs 7 and 8", es, err)
	}
	got := es[0]
	if got.JobID != "7" {
		got = es[1]
	}
	got.Written, got.file = time.Time{}, ""
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("job 7 reads as %+v, want %+v", got, want)
	}
}

// EntriesBut reads no file of a job it skips, in either layout.
func TestJournal_entriesBut(t *testing.T) {
	dir := t.TempDir()
	j, _ := OpenJournal(dir)
	for _, id := range []string{"abc123-7", "abc123-8"} {
		if _, err := j.Put(JournalEntry{Key: "k", JobID: id}); err != nil {
			t.Fatal(err)
		}
	}
	legacy := `{"key":"k","job_id":"abc123-9","written":"2026-01-01T00:00:00Z"}`
	if err := os.WriteFile(filepath.Join(dir, keyPrefix("k")+"01767225600000000000-abc123-9"+journalSuffix), []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	var asked []string
	es, err := j.EntriesBut(func(id string) bool { asked = append(asked, id); return id != "abc123-8" })
	slices.Sort(asked)
	if err != nil || len(es) != 1 || es[0].JobID != "abc123-8" || !slices.Equal(asked, []string{"abc123-7", "abc123-8", "abc123-9"}) {
		t.Fatalf("EntriesBut = %+v, %v, asked about %v; want job 8 alone, every job asked about", es, err, asked)
	}
}

func TestJournal_forgetRemovesEveryEntryOfTheJob(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	for _, e := range []JournalEntry{{Key: "a", JobID: "7"}, {Key: "b", JobID: "7x"}, {Key: "a", JobID: "8"}} {
		if _, err := j.Put(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Forget("7"); err != nil {
		t.Fatal(err)
	}
	es, err := j.Entries()
	if err != nil || len(es) != 2 {
		t.Fatalf("entries after Forget(7) = %+v, %v; want jobs 7x and 8", es, err)
	}
}

// Several takers of one entry: exactly one gets it.
func TestJournal_concurrentTakesTakeEachEntryOnce(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	const n = 20
	for i := range n {
		if _, err := j.Put(JournalEntry{Key: "k", JobID: string(rune('a' + i))}); err != nil {
			t.Fatal(err)
		}
	}
	es, _ := j.Entries()
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ok, err := j.Take(es[i%n]); err == nil && ok {
				mu.Lock()
				got[es[i%n].JobID]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(got) != n {
		t.Fatalf("%d distinct jobs taken, want %d", len(got), n)
	}
	for id, c := range got {
		if c != 1 {
			t.Errorf("job %s taken %d times", id, c)
		}
	}
	if _, err := j.Take(JournalEntry{JobID: "z"}); err == nil {
		t.Error("Take of an entry Entries did not list succeeded")
	}
}

func TestJournal_rejectsJobIDsThatNameOtherFiles(t *testing.T) {
	j, _ := OpenJournal(t.TempDir())
	for _, id := range []string{"", "../x", "a/b", "a.b"} {
		if _, err := j.Put(JournalEntry{Key: "k", JobID: id}); err == nil {
			t.Errorf("Put(job %q) succeeded", id)
		}
	}
}

func TestJournal_ignoresTornAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	j, _ := OpenJournal(dir)
	if err := os.WriteFile(filepath.Join(dir, keyPrefix("k")+"9"+journalSuffix), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Put(JournalEntry{Key: "k", JobID: "5"}); err != nil {
		t.Fatal(err)
	}
	if e, ok := take(t, j, "k", nil); !ok || e.JobID != "5" {
		t.Fatalf("take = %+v, %v; want job 5 past the torn file", e, ok)
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

// A run is alive while its process runs and, where start times are read,
// only if it is the process that started then.
func TestRun_alive(t *testing.T) {
	if r := ThisRun(); !r.Alive() || r.PID != os.Getppid() {
		t.Fatalf("ThisRun() = %+v, alive %v; want this process's parent, alive", r, r.Alive())
	}
	self := Run{PID: os.Getpid()}
	self.Start, _ = processStart(self.PID)
	if !self.Alive() {
		t.Fatal("this process's run is not alive")
	}
	if self.Start != 0 {
		other := self
		other.Start++
		if other.Alive() {
			t.Fatal("a run of this pid started at another time is alive")
		}
	}
	if (Run{}).Alive() {
		t.Fatal("the zero Run is alive")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if ProcessAlive(cmd.Process.Pid) {
		t.Skip("the pid of a process that ended was reused at once")
	}
	if (Run{PID: cmd.Process.Pid}).Alive() {
		t.Fatal("a run whose process ended is alive")
	}
}
