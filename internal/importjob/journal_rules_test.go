package importjob

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
)

// The guide's section on the journal of started jobs
// (templates/guides/interrupted-applies.md.tmpl, "The journal of started
// jobs" to its end), sentence by sentence: each rule of the core has a
// check on fakes (processes, runs and a store in memory), and each other
// sentence names where it is held. A sentence added to the section with
// neither, or a rule whose sentence is gone, fails TestGuideJournalRules.
// (Its tables are TestDocTables'.)

// guideRule is a rule of the section: a fragment of its sentence, as the
// guide writes it, and the check that holds it.
type guideRule struct {
	says  string
	check func(t *testing.T)
}

// elsewhere is a sentence of the section that is no rule of the core,
// and what holds it.
type elsewhere struct{ says, heldBy string }

// replacing is a create of key that replaces live job prior.
func replacing(t *testing.T, j *Journal, key Key, prior string) (*Settled, string) {
	t.Helper()
	j.NoteReplacement(key, ref(prior), false)
	return settle(t, j, key)
}

func guideRules() []guideRule {
	a, b := keyOf(rowsImport("t1", "A")), keyOf(rowsImport("t1", "B"))
	return []guideRule{
		{"Terraform holds a job only once the create returns and the state is written", func(t *testing.T) {
			w := newWorld()
			j := w.run()
			_ = j.Release(start(t, j, a, "1"), false)
			if es, _ := j.entries(); len(es) != 1 {
				t.Fatalf("a returned job's entry is gone before the state is written: %+v", es)
			}
			w.kill(j) // before the state was written (a remote backend, every 20 s)
			if id := w.nextRunSettles(t, a); id != "1" {
				t.Fatalf("the next apply settled %q, want job 1", id)
			}
		}},
		{"the moment the service answers with a job's id, it writes a small file for that job", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1")
			j := w.run()
			start(t, j, b, "2")
			_, id := settle(t, j, a)
			for _, job := range []string{"1", "2"} {
				if e, ok, _ := j.entry(ref(job)); !ok || e.Holder != j.self.PID || e.Run != j.self.Run {
					t.Errorf("job %s, started or resumed, is in the journal as %+v, %v; want held by this process", job, e, ok)
				}
			}
			if id != "1" {
				t.Errorf("resumed %q, want job 1", id)
			}
		}},
		{"An entry names the job, the data it imports, and the change it was started for", func(t *testing.T) {
			j := newWorld().run()
			start(t, j, a, "1")
			_, _ = replacing(t, j, b, "N")
			_ = j.Started(&Settled{Key: b, Prior: ref("N")}, ref("2"))
			for job, want := range map[string]Entry{"1": {Key: a}, "2": {Key: b, Prior: ref("N")}} {
				if e, _, _ := j.entry(ref(job)); e.Job != ref(job) || e.Key != want.Key || e.Prior != want.Prior {
					t.Errorf("job %s's entry is %+v, want key %q, prior %v", job, e, want.Key, want.Prior)
				}
			}
		}},
		{"Only an apply that carries out the same change again", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1")
			j := w.run()
			if _, id := settle(t, j, b); id != "" {
				t.Errorf("another definition settled %s", id)
			}
			if _, id := settle(t, j, a); id != "1" {
				t.Errorf("the same change settled %q, want job 1", id)
			}
		}},
		{"(the same new object, or the replacement of the same job N) resumes a killed apply's job", func(t *testing.T) {
			for _, asNew := range []bool{true, false} {
				w := newWorld()
				w.killedApply(t, a, "N", "1")
				j := w.run()
				if _, id := replacing(t, j, a, "M"); id != "" {
					t.Errorf("the replacement of another job settled %s", id)
				}
				var id string
				if asNew {
					_, id = settle(t, j, a)
				} else {
					_, id = replacing(t, j, a, "N")
				}
				if id != "1" {
					t.Errorf("as new %v: settled %q, want job 1", asNew, id)
				}
			}
		}},
		{"its create of the same data records the job, submits it if it never was, waits as configured", func(t *testing.T) {
			expectResume(t, Resumed{Status: jobstatus.StatusEditing, Submit: true}, Resumption{Submit: true})
			expectResume(t, Resumed{Status: jobstatus.StatusSubmitted, Submit: true}, Resumption{})
		}},
		{"No job starts.", func(t *testing.T) {
			expectJobs(t, []Entry{killed("1", a, "")}, Create{Key: a}, jobstatus.StatusRunning, 0)
		}},
		{"A create that replaces any other live job never resumes it", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1")
			w.killedApply(t, a, "N", "2")
			if _, id := replacing(t, w.run(), a, "Q"); id != "" {
				t.Errorf("the replacement of live job Q settled %s", id)
			}
		}},
		{"an entry also notes a job that an `etl_import` created anew starts for other data meanwhile", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1")
			j := w.run()
			start(t, j, b, "2")
			if e, _, _ := j.entry(ref("1")); len(e.MayBe) != 1 || e.MayBe[0] != ref("2") {
				t.Errorf("job 1's entry notes %v, want job 2", e.MayBe)
			}
		}},
		{"if that `etl_import` is later replaced or destroyed, the entry is dropped", func(t *testing.T) {
			for _, destroy := range []bool{false, true} {
				w := newWorld()
				w.killedApply(t, a, "", "1")
				j := w.run()
				start(t, j, b, "2")
				var drops []Drop
				if destroy {
					_, drops, _ = j.Delete(Deleted{Job: ref("2")})
				} else {
					s, id := replacing(t, j, a, "2") // the data changed back
					if id != "" {
						t.Errorf("the replacement with the same data settled %s", id)
					}
					drops = s.Drops
				}
				expectDrops(t, drops, map[string]Reason{"1": MovedOn})
			}
		}},
		{"the apply warns `Import job ... not resumed: its data stays in the model`", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, b, "N", "1")
			_, drops, _ := w.run().Delete(Deleted{Job: ref("N")})
			if len(drops) != 1 || drops[0].Entry.Job != ref("1") || drops[0].Entry.Prior != ref("N") || drops[0].Reason != PriorDestroyed {
				t.Errorf("drops %+v; want job 1, its prior N, and why", drops)
			}
		}},
		{"An entry is claimed only when the process that wrote it is gone", func(t *testing.T) {
			w := newWorld()
			j := w.run()
			start(t, j, a, "1")
			w.procs[j.self.PID] = false // the provider process killed; its CLI still runs
			if _, id := settle(t, w.run(), a); id != "" {
				t.Errorf("settled %s while the run that wrote it runs", id)
			}
			w.kill(j)
			if id := w.nextRunSettles(t, a); id != "1" {
				t.Errorf("settled %q once its run is gone, want job 1", id)
			}
		}},
		{"while an apply runs, the jobs it started are its own", func(t *testing.T) {
			j := newWorld().run()
			_ = j.Release(start(t, j, a, "1"), false)
			start(t, j, a, "2") // another instance, the same data
			if _, id := settle(t, j, a); id != "" {
				t.Errorf("a create of the same apply settled %s", id)
			}
		}},
		{"A resource removed from the configuration before its killed job was resumed, then added back with the same data", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1")
			removed := w.run() // the resource is not in this apply
			_ = removed.Close()
			w.kill(removed)
			if id := w.nextRunSettles(t, a); id != "1" {
				t.Errorf("added back, it settled %q, want job 1", id)
			}
		}},
		{"since `-replace` can import it again while a second import cannot be undone", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1")
			j := w.run()
			_, _ = settle(t, j, a)
			asked := Replaced{Asked: true, Key: a, Status: jobstatus.StatusCompleted, Planned: a}
			if handed, _, _ := j.Delete(Deleted{Job: ref("1"), Replaced: &asked}); handed {
				t.Error("-replace handed the settled job over")
			}
			if _, id := settle(t, j, a); id != "" {
				t.Errorf("-replace settled %s, want a new job", id)
			}
		}},
		{"the journal holds the jobs started since", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1", "2", "3")
			j := w.run()
			got := map[string]bool{}
			for range 3 {
				_, id := settle(t, j, a)
				got[id] = true
			}
			if len(got) != 3 || got[""] {
				t.Errorf("three creates of the lost state settled %v, want jobs 1, 2 and 3", got)
			}
		}},
		{"Recover as in case D", func(t *testing.T) {
			w := newWorld()
			w.killedApply(t, a, "", "1") // a crash is a kill
			if id := w.nextRunSettles(t, a); id != "1" {
				t.Errorf("a plain apply settled %q, want job 1", id)
			}
		}},
	}
}

// guideElsewhere are the sentences of the section that the core does not
// hold, and what does.
var guideElsewhere = []elsewhere{
	{"under `<TF_DATA_DIR or .terraform>/etl-provider-jobs/<workspace>/`", "internal/provider's journalDir (TestJournalDir), internal/localfile's JournalDir (TestJournalDir_*)"},
	{"one journal per workspace and working directory", "internal/provider's journalDir (TestJournalDir)"},
	{"with the commands that adopt it", "internal/provider's warnDropped (TestAccKilled_editBackAfterKillImportsAgain)"},
	{"To forget a job instead, delete its entry", "internal/localfile's JournalDir: a file per job, named for it"},
	{"a local state file after each resource, a remote backend every 20 seconds and at the end", "the CLIs (the explorer's model of their state files)"},
	{"A CLI killed while it rewrites a local state file can leave", "the CLIs (the explorer's model of their state files)"},
	{"A remote backend loses only what the apply did since its last snapshot", "the CLIs; the journal's part is the rule of the section's first paragraph"},
	{"Terraform 1.16 (1.16.0 to 1.16.4) can empty the state file without a kill", "Terraform 1.16.0 to 1.16.4 (TestAccResume_timedOutTogether)"},
	{"ObjectStatus(0)", "Terraform 1.16.0 to 1.16.4 (TestAccResume_timedOutTogether): the end of its panic's message"},
	{"The provider keeps its own imports 200 ms apart from such a create", "internal/provider's responseGate (TestResponseGate)"},
}

// guideSentences are the sentences of the section, tables and headings
// left out, each on one line.
func guideSentences(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "templates", "guides", "exactly-once.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## The journal of started jobs")
	if i < 0 {
		t.Fatal("the guide has no section on the journal")
	}
	var prose []string
	for _, l := range strings.Split(s[i:], "\n") {
		if !strings.HasPrefix(l, "|") && !strings.HasPrefix(l, "#") {
			prose = append(prose, strings.TrimSpace(l))
		}
	}
	text := strings.Join(strings.Fields(strings.Join(prose, " ")), " ")
	var out []string
	start := 0
	for _, m := range regexp.MustCompile("\\.\\s+[A-Z(`]").FindAllStringIndex(text, -1) {
		out = append(out, text[start:m[0]+1])
		start = m[1] - 1
	}
	return append(out, text[start:])
}

// TestGuideJournalRules runs each rule's check, and fails when a sentence
// of the section is neither a rule nor held elsewhere, or when a rule's
// sentence is gone from it.
func TestGuideJournalRules(t *testing.T) {
	sentences := guideSentences(t)
	section := strings.Join(sentences, ". ")
	covered := make([]bool, len(sentences))
	mark := func(says string) bool {
		found := false
		for i, s := range sentences {
			if strings.Contains(s+".", says) {
				covered[i], found = true, true
			}
		}
		return found || strings.Contains(section, says)
	}
	for _, r := range guideRules() {
		if !mark(r.says) {
			t.Errorf("a rule says %q, which the guide's section does not", r.says)
		}
		t.Run(r.says, r.check)
	}
	for _, e := range guideElsewhere {
		if !mark(e.says) {
			t.Errorf("%q, held by %s, is not in the guide's section", e.says, e.heldBy)
		}
	}
	for i, s := range sentences {
		if !covered[i] && strings.TrimSpace(s) != "" {
			t.Errorf("the guide's sentence %q is neither a rule with a check nor held elsewhere", s)
		}
	}
	t.Logf("%d sentences: %d rules, %d held elsewhere", len(sentences), len(guideRules()), len(guideElsewhere))
}

// An entry an earlier build of the provider wrote has no run and records
// no change: a replacement never resumes it, a new object's create does.
func TestJournal_entryWithoutRun(t *testing.T) {
	a := keyOf(rowsImport("t1", "A"))
	w := newWorld()
	_, _ = w.store.Put(Entry{Key: a, Job: ref("1"), Holder: 999})
	j := w.run()
	if _, id := replacing(t, j, a, "N"); id != "" {
		t.Errorf("a replacement settled the earlier release's entry %s", id)
	}
	if _, id := settle(t, j, a); id != "1" {
		t.Errorf("a new object settled %q, want job 1", id)
	}
}
