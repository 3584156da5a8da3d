package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// The journal's rules and protocol are importjob's, tested there with
// fakes; here, the journal the provider opens: in files that outlive the
// process, as an earlier release wrote them, or in memory.

// An entry an earlier release wrote (599e646: no run, no change recorded,
// a holder long gone) is read from its file, settled by a new object's
// create of its key, and taken from the directory.
func TestOpenJournal_readsAnEarlierReleasesEntry(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "j")
	d, err := localfile.OpenJournalDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	job := importjob.NewJobRef("http://127.0.0.1:1", "640101874288689160")
	key := importjob.NewKey("http://127.0.0.1:1", "rows\x00t1\x00s1\x00\x00")
	earlier := `{"key":"http://127.0.0.1:1\u0000rows\u0000t1\u0000s1\u0000\u0000","job_id":"` + job.String() + `","written":"2026-11-26T11:00:00Z","holder":1073741824}`
	if _, err := d.Write(string(key), job.String(), []byte(earlier)); err != nil {
		t.Fatal(err)
	}
	j := openJournal(context.Background(), dir)
	s, err := j.SettleCreate(key)
	if err != nil || s.Claim != job {
		t.Fatalf("SettleCreate = %+v, %v; want the earlier release's job %s", s, err, job)
	}
	if names, _ := d.Names(func(id string) bool { return id != job.String() }); len(names) != 1 {
		t.Fatalf("files of the job = %v; want the one the create holds it in", names)
	}
	if err := j.Release(s, false); err != nil {
		t.Fatal(err)
	}
	if err := j.StateHolds(job); err != nil {
		t.Fatal(err)
	}
	if names, _ := d.Names(nil); len(names) != 0 {
		t.Fatalf("files after the state holds the job = %v; want none", names)
	}
}

// Without a directory, or with one that cannot be made, the journal is in
// memory: a job handed over is settled within the process all the same.
func TestOpenJournal_inMemory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"", filepath.Join(file, "j")} {
		j := openJournal(context.Background(), dir)
		job := importjob.NewJobRef("http://127.0.0.1:1", "1")
		handed, _, err := j.Delete(importjob.Deleted{Job: job, Replaced: &importjob.Replaced{Key: "k", Status: "RUNNING", Planned: "k"}})
		if err != nil || !handed {
			t.Fatalf("dir %q: Delete handed over %v, %v", dir, handed, err)
		}
		if s, err := j.SettleCreate("k"); err != nil || s.Claim != job {
			t.Fatalf("dir %q: SettleCreate = %+v, %v; want job 1", dir, s, err)
		}
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

// A create whose journal cannot be read fails, names what to run, and
// starts no job: the journal may hold one of the same data (it started a
// second job without a word after 8 tries to take an entry).
func TestCreate_unsureJournalStartsNoJob(t *testing.T) {
	e := newTestEmulator(t, emulator.Options{Instant: true})
	dir := filepath.Join(t.TempDir(), "j")
	d, err := localfile.OpenJournalDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer("test", testTuning)
	s.journal = importjob.NewJournal(importjob.NewFileStore(d), importjob.Self{PID: os.Getpid()}, localfile.ProcessRunning)
	if err := os.RemoveAll(dir); err != nil { // a file where the directory was: it cannot be listed
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	h := newProtoHarnessOf(t, s.Provider())
	if diags := h.configure(map[string]any{"base_url": e.URL, "token_id": emulator.DefaultTokenID, "token_secret": emulator.DefaultTokenSecret}); hasError(diags) {
		t.Fatal(describe(diags))
	}
	diags := h.applyImport(map[string]any{"template_id": emulator.GLActualsTemplateID, "rows": [][]string{{"Account", "Amount"}, {"4000", "1"}}})
	if !hasError(diags) || !strings.Contains(describe(diags), "No import job started") || !strings.Contains(describe(diags), "Run terraform apply again") {
		t.Fatalf("diagnostics = %s; want the create to fail, saying what to run", describe(diags))
	}
	if n := len(e.Jobs()); n != 0 {
		t.Fatalf("%d jobs started, want none", n)
	}
}
