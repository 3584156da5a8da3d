package importjob

import (
	"errors"
	"slices"
	"testing"
)

// The journal's commands on fakes: a store in memory shared by journals
// that stand for processes, and processes that run or are gone as the
// test says. No files, no Terraform.

// journals returns a journal in memory and one on a shared store, each
// with its world.
func journals() map[string]*Journal {
	return map[string]*Journal{"memory": NewMemoryJournal(Self{PID: 1}), "store": newWorld().run()}
}

// handOver is the delete of a tainted job id of key, replaced by a create
// of the same key.
func handOver(t *testing.T, j *Journal, key Key, id string) {
	t.Helper()
	handed, _, err := j.Delete(Deleted{Job: ref(id), Replaced: &Replaced{Key: key, Status: "RUNNING", Planned: key}})
	if err != nil || !handed {
		t.Fatalf("the delete of tainted job %s handed over %v, %v", id, handed, err)
	}
}

// A job a running create holds is never claimed by another create of the
// same key (two instances with identical data); a job handed over is
// claimed once.
func TestJournal_claimsOnlyWhatNoCreateHolds(t *testing.T) {
	for name, j := range journals() {
		t.Run(name, func(t *testing.T) {
			start(t, j, "k", "running")
			if _, id := settle(t, j, "k"); id != "" {
				t.Fatalf("claimed %s, which a running create holds", id)
			}
			handOver(t, j, "k", "tainted")
			if _, id := settle(t, j, "k"); id != "tainted" {
				t.Fatalf("claim = %q; want the job handed over", id)
			}
			if _, id := settle(t, j, "k"); id != "" {
				t.Fatalf("claimed %s twice", id)
			}
			if _, id := settle(t, j, "other"); id != "" {
				t.Fatalf("claimed %s for another key", id)
			}
		})
	}
}

// In memory, a job whose request was cancelled is claimed by the next
// create of its key, and one returned to Terraform is forgotten.
func TestJournal_memoryKeepsWhatACancelledRequestLeft(t *testing.T) {
	j := NewMemoryJournal(Self{PID: 1})
	if err := j.Release(start(t, j, "k", "done"), false); err != nil {
		t.Fatal(err)
	}
	if _, id := settle(t, j, "k"); id != "" {
		t.Fatalf("claimed %s, which its create returned", id)
	}
	if err := j.Release(start(t, j, "k", "cut"), true); err != nil {
		t.Fatal(err)
	}
	if _, id := settle(t, j, "k"); id != "cut" {
		t.Fatalf("claim = %q; want the job whose request was cancelled", id)
	}
}

// In a lasting store, a job returned to a run stays that run's while it
// runs (another create of the same apply never takes it), and is claimed
// by the next run once that run is gone: the state it was returned to may
// never have been written. Close forgets a job returned as usual, not one
// whose create was cut short.
func TestJournal_keepsAReturnedJobUntilItsRunEnds(t *testing.T) {
	w := newWorld()
	j := w.run()
	_ = j.Release(start(t, j, "k", "1"), true) // Terraform stopped it, or went away
	_ = j.Release(start(t, j, "k", "2"), false)
	if _, id := settle(t, j, "k"); id != "" {
		t.Fatalf("claimed %s in the run it was returned to", id)
	}
	es, _ := w.store.Entries(nil)
	if len(es) != 2 || es[0].Holder != 0 || !es[0].Returned || es[0].Run != j.self.Run {
		t.Fatalf("store = %+v; want both jobs, held by nobody, returned to this run", es)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if es, _ := w.store.Entries(nil); len(es) != 1 || es[0].Job != ref("1") {
		t.Fatalf("store after Close = %+v; want job 1 alone, whose create was cut short", es)
	}
	w.kill(j)
	if _, id := settle(t, w.run(), "k"); id != "1" {
		t.Fatalf("the next run claimed %q; want job 1", id)
	}
}

// A job a refresh, a plan or a delete finds in a state leaves the
// journal, whoever holds it.
func TestJournal_stateHolds(t *testing.T) {
	for name, j := range journals() {
		t.Run(name, func(t *testing.T) {
			handOver(t, j, "k", "1")
			start(t, j, "k2", "2")
			for _, id := range []string{"1", "2"} {
				if err := j.StateHolds(ref(id)); err != nil {
					t.Fatal(err)
				}
			}
			if es, _ := j.entries(); len(es) != 0 {
				t.Fatalf("entries = %+v; want none", es)
			}
		})
	}
}

// The journal outlives the process: a later run finds a job whose holder
// is gone, a job handed over, and the entry of an earlier release (no
// run, no change recorded), which it settles as a new object's: a
// replacement takes only the job handed over.
func TestJournal_outlivesTheProcess(t *testing.T) {
	w := newWorld()
	_, _ = w.store.Put(Entry{Key: "k", Job: ref("orphan"), Holder: 999, Run: Run{PID: 998}})
	_, _ = w.store.Put(Entry{Key: "k", Job: ref("legacy"), Holder: 999})
	j := w.run()
	handOver(t, j, "k", "handed")
	next := w.run()
	got := map[string]bool{}
	for _, live := range []string{"live1", "live2", "live3"} {
		next.NoteReplacement("k", ref(live), false)
		if _, id := settle(t, next, "k"); id != "" {
			got[id] = true
		}
	}
	if len(got) != 1 || !got["handed"] {
		t.Fatalf("a replacement claimed %v; want the job handed over alone", got)
	}
	for range 3 {
		if _, id := settle(t, next, "k"); id != "" {
			got[id] = true
		}
	}
	if len(got) != 3 || !got["orphan"] || !got["legacy"] {
		t.Fatalf("new objects claimed %v; want the orphan and the earlier release's entry too", got)
	}
}

// A replacement drops, with its reasons, the entries it makes impossible;
// a new object that settles nothing notes its job in the entries it may be
// the resource of; a destroy drops what it makes impossible.
func TestJournal_dropsAndMayBe(t *testing.T) {
	w := newWorld()
	_, _ = w.store.Put(killed("killedA", "A", ""))
	_, _ = w.store.Put(killed("killedB", "B", "P"))
	j := w.run()
	start(t, j, "C", "newC")
	if e, _, _ := j.entry(ref("killedA")); !slices.Equal(e.MayBe, refs("newC")) {
		t.Fatalf("killedA notes %v; want the new object's job", e.MayBe)
	}
	j.NoteReplacement("C", ref("newC"), false)
	s, id := settle(t, j, "C")
	if len(s.Drops) != 2 || id != "" {
		t.Fatalf("a replacement of newC settled %+v; want killedA and killedB (newC may be their resource) dropped", s)
	}
	if es, _ := w.store.Entries(func(job JobRef) bool { return job == ref("newC") }); len(es) != 0 {
		t.Fatalf("store = %+v; want the dropped entries gone", es)
	}
	_, _ = w.store.Put(killed("killedD", "D", "Q"))
	if _, d, err := j.Delete(Deleted{Job: ref("Q")}); err != nil || len(d) != 1 || d[0].Reason != PriorDestroyed {
		t.Fatalf("destroying Q dropped %+v, %v; want killedD, whose change replaced Q", d, err)
	}
}

// A replacement's create learns the job it replaces, and whether its
// object is tainted, once: a second note of a job whose note a create
// took is ignored (the delete after a create_before_destroy).
func TestJournal_replacementNotes(t *testing.T) {
	j := NewMemoryJournal(Self{PID: 1})
	j.NoteReplacement("k", ref("P"), false)
	j.NoteReplacement("", ref("Q"), true)
	if s, _ := settle(t, j, "k"); s.Prior != ref("P") {
		t.Fatalf("the create of k carries out %+v, want the replacement of P", s)
	}
	if got := j.replacementFor("other"); got != (Create{Key: "other", Replaces: ref("Q"), Tainted: true}) {
		t.Fatalf("replacementFor(other) = %+v, want Q, tainted, noted with no key", got)
	}
	j.NoteReplacement("k", ref("P"), false)
	if got := j.replacementFor("k"); got != (Create{Key: "k"}) {
		t.Fatalf("replacementFor(k) = %+v after P's note was taken, want none", got)
	}
}

// Job ids are unique per service only: a job of one service is never
// claimed, held or forgotten for another's job of the same id.
func TestJournal_jobsOfTwoServices(t *testing.T) {
	for name, j := range journals() {
		t.Run(name, func(t *testing.T) {
			a, b := NewJobRef("http://a", "1"), NewJobRef("http://b", "1")
			ka, kb := NewKey("http://a", "d"), NewKey("http://b", "d")
			s, _ := settle(t, j, ka)
			_ = j.Started(s, a)
			_, _, _ = j.Delete(Deleted{Job: b, Replaced: &Replaced{Key: kb, Planned: kb}})
			_ = j.StateHolds(a)
			if s, _ := settle(t, j, kb); s.Claim != b {
				t.Fatalf("claim on b = %+v: forgetting a's job 1 lost b's", s.Claim)
			}
			if _, id := settle(t, j, ka); id != "" {
				t.Fatalf("claimed %s on a, which was forgotten", id)
			}
		})
	}
}

// flakyStore fails or loses races as the test says.
type flakyStore struct {
	*MemoryStore
	readErr, takeErr error
	takenFirst       bool // another process takes every entry first
}

func (f *flakyStore) Entries(skip func(JobRef) bool) ([]Entry, error) {
	if f.readErr != nil {
		return nil, f.readErr
	}
	return f.MemoryStore.Entries(skip)
}

func (f *flakyStore) Take(e Entry) (bool, error) {
	if f.takeErr != nil || f.takenFirst {
		return false, f.takeErr
	}
	return f.MemoryStore.Take(e)
}

// A create that cannot tell which job it should settle starts none: the
// journal cannot be read, an entry cannot be taken, or other processes
// take the entry first time after time (the create tried 8 times, then
// started a second job without a word).
func TestJournal_unsureStartsNothing(t *testing.T) {
	broken := errors.New("permission denied")
	for name, f := range map[string]*flakyStore{
		"unreadable": {readErr: broken},
		"untakable":  {takeErr: broken},
		"contended":  {takenFirst: true},
	} {
		t.Run(name, func(t *testing.T) {
			f.MemoryStore = NewMemoryStore()
			_, _ = f.MemoryStore.Put(killed("1", "k", ""))
			j := NewJournal(f, Self{PID: 1}, procs{}.alive)
			s, err := j.SettleCreate("k")
			var unsure *UnsureError
			if !errors.As(err, &unsure) || unsure.Contended != f.takenFirst || f.takenFirst == errors.Is(err, broken) || !s.Claim.IsZero() {
				t.Fatalf("SettleCreate = %+v, %v; want an UnsureError and no claim", s, err)
			}
			if es, _ := f.MemoryStore.Entries(nil); len(es) != 1 {
				t.Fatalf("store = %+v; want job 1 kept", es)
			}
		})
	}
}

// A claimed job that ended without importing leaves the journal, and the
// create holds the job it starts instead.
func TestJournal_discard(t *testing.T) {
	w := newWorld()
	_, _ = w.store.Put(killed("ended", "k", ""))
	j := w.run()
	s, id := settle(t, j, "k")
	if id != "ended" {
		t.Fatalf("claim = %q, want the killed apply's job", id)
	}
	if err := j.Discard(s); err != nil {
		t.Fatal(err)
	}
	if err := j.Started(s, ref("new")); err != nil {
		t.Fatal(err)
	}
	_ = j.Release(s, false)
	es, _ := j.entries()
	if len(es) != 1 || es[0].Job != ref("new") || !es[0].Returned {
		t.Fatalf("entries = %+v; want the new job alone, returned", es)
	}
}
