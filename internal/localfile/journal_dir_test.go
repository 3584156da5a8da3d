package localfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// write writes data as the file of key and job, failing the test on error.
func write(t *testing.T, j *JournalDir, key, job, data string) string {
	t.Helper()
	name, err := j.Write(key, job, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// contents reads every file Names lists, by job.
func contents(t *testing.T, j *JournalDir) map[string]string {
	t.Helper()
	names, err := j.Names(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range names {
		b, err := j.Read(n)
		if err != nil {
			t.Fatal(err)
		}
		out[jobOf(n)] = string(b)
	}
	return out
}

// Write replaces the job's file, whatever its key or layout, and keeps the
// bytes as given.
func TestJournalDir_writeReplacesTheJobsFile(t *testing.T) {
	dir := t.TempDir()
	j, err := OpenJournalDir(filepath.Join(dir, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	legacy := keyPrefix("k") + "01767225600000000000-7" + journalSuffix
	if err := os.WriteFile(filepath.Join(j.Dir(), legacy), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, j); got["7"] != "old" {
		t.Fatalf("the earlier layout lists as %v, want job 7", got)
	}
	write(t, j, "other key", "7", "new")
	write(t, j, "k", "8", "eight")
	if got := contents(t, j); len(got) != 2 || got["7"] != "new" || got["8"] != "eight" {
		t.Fatalf("files = %v; want job 7's new bytes alone, and job 8", got)
	}
	if st, err := os.Stat(j.Dir()); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the directory is %v, %v; want owner only", st.Mode(), err)
	}
}

// Names reads no file, and lists none of a job it skips, in either layout.
func TestJournalDir_namesSkip(t *testing.T) {
	j, _ := OpenJournalDir(t.TempDir())
	write(t, j, "k", "abc123-7", "")
	write(t, j, "k", "abc123-8", "")
	if err := os.WriteFile(filepath.Join(j.Dir(), keyPrefix("k")+"01767225600000000000-abc123-9"+journalSuffix), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var asked []string
	names, err := j.Names(func(job string) bool { asked = append(asked, job); return job != "abc123-8" })
	slices.Sort(asked)
	if err != nil || len(names) != 1 || jobOf(names[0]) != "abc123-8" || !slices.Equal(asked, []string{"abc123-7", "abc123-8", "abc123-9"}) {
		t.Fatalf("Names = %v, %v, asked about %v; want job 8 alone, every job asked about", names, err, asked)
	}
}

func TestJournalDir_forgetRemovesEveryFileOfTheJob(t *testing.T) {
	j, _ := OpenJournalDir(t.TempDir())
	write(t, j, "a", "7", "")
	write(t, j, "b", "7x", "")
	write(t, j, "a", "8", "")
	if err := j.Forget("7"); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, j); len(got) != 2 {
		t.Fatalf("files after Forget(7) = %v; want jobs 7x and 8", got)
	}
}

// Several removers of one file: exactly one removes it.
func TestJournalDir_concurrentRemovesRemoveEachFileOnce(t *testing.T) {
	j, _ := OpenJournalDir(t.TempDir())
	const n = 20
	var names []string
	for i := range n {
		names = append(names, write(t, j, "k", string(rune('a'+i)), ""))
	}
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for i := range 2 * n {
		wg.Go(func() {
			if ok, err := j.Remove(names[i%n]); err == nil && ok {
				mu.Lock()
				got[names[i%n]]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(got) != n {
		t.Fatalf("%d distinct files removed, want %d", len(got), n)
	}
	for name, c := range got {
		if c != 1 {
			t.Errorf("%s removed %d times", name, c)
		}
	}
}

func TestJournalDir_rejectsNamesOfOtherFiles(t *testing.T) {
	j, _ := OpenJournalDir(t.TempDir())
	for _, job := range []string{"", "../x", "a/b", "a.b"} {
		if _, err := j.Write("k", job, nil); err == nil {
			t.Errorf("Write(job %q) succeeded", job)
		}
	}
	for _, name := range []string{"../x" + journalSuffix, "notes.txt"} {
		if _, err := j.Remove(name); err == nil {
			t.Errorf("Remove(%q) succeeded", name)
		}
	}
	if _, err := j.Read("../x"); err == nil {
		t.Error("Read(../x) succeeded")
	}
}

// Names lists the entries' files alone; a directory that is gone holds
// none.
func TestJournalDir_listsEntriesAlone(t *testing.T) {
	j, _ := OpenJournalDir(t.TempDir())
	if err := os.WriteFile(filepath.Join(j.Dir(), "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	write(t, j, "k", "5", "")
	if got := contents(t, j); len(got) != 1 {
		t.Fatalf("files = %v; want job 5 alone", got)
	}
	if err := os.RemoveAll(j.Dir()); err != nil {
		t.Fatal(err)
	}
	if names, err := j.Names(nil); err != nil || len(names) != 0 {
		t.Fatalf("Names of a removed directory = %v, %v; want none", names, err)
	}
}

// endedPID is the pid of a process that ran and ended; the test is
// skipped when the system gave it to another process at once.
func endedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if processAlive(cmd.Process.Pid) {
		t.Skip("the pid of a process that ended was reused at once")
	}
	return cmd.Process.Pid
}

func TestProcessAlive(t *testing.T) {
	if !ProcessAlive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	if ProcessAlive(endedPID(t)) {
		t.Fatal("a process that ended is alive")
	}
	if ProcessAlive(0) || ProcessAlive(-1) {
		t.Fatal("pid 0 or -1 is alive")
	}
}

// A process runs while it exists and, where start times are read, only
// if it is the process that started then.
func TestProcessRunning(t *testing.T) {
	if pid, start := ParentProcess(); !ProcessRunning(pid, start) || pid != os.Getppid() {
		t.Fatalf("ParentProcess() = %d, %d; want this process's parent, running", pid, start)
	}
	self := os.Getpid()
	start, _ := processStart(self)
	if !ProcessRunning(self, start) || !ProcessRunning(self, 0) {
		t.Fatal("this process is not running")
	}
	if start != 0 && ProcessRunning(self, start+1) {
		t.Fatal("a process of this pid started at another time is running")
	}
	if ProcessRunning(0, 0) {
		t.Fatal("pid 0 is running")
	}
	if ProcessRunning(endedPID(t), 0) {
		t.Fatal("a process that ended is running")
	}
}
