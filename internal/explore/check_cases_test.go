package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The checker's own tests: no CLI. A sequence of one block, a first apply
// and a -replace, whose second step must start exactly one new CSV job.

func checkSeq() sequence {
	b := block{Name: "r0", Count: 1, Kind: kindPath, Dir: "a", Wait: true}
	return sequence{Seed: 7, Init: config{Blocks: []block{b}}, Steps: []step{
		{Kind: stepOp, Name: "apply"}, {Kind: stepEdit, Name: "format", Value: 1}, {Kind: stepOp, Name: "replace"},
	}}
}

// emuJob is a job as the emulator records it, holding data set 0 in format
// and encoding.
func emuJob(id, format string) emulator.Job {
	sum := sha256.Sum256(fileBytes(0, indexOf(formats, format), 0))
	return emulator.Job{ID: id, TemplateID: templates[0], Status: emulator.StatusCompleted,
		Upload: &emulator.Upload{Kind: "file", Format: format, Encoding: "UTF-8", SHA256: hex.EncodeToString(sum[:])}}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// replaceExpect is the model's expectation for the -replace of checkSeq,
// the first job being "1".
func replaceExpect(t *testing.T) expect {
	t.Helper()
	q := checkSeq()
	m := newModel(q.Init)
	m.op(q.Steps[0])
	m.learn(map[string]string{"etl_import.r0[0]": "1"})
	m.cfg = applyEdit(m.cfg, q.Steps[1])
	e := m.op(q.Steps[2])
	if len(e.New) != 1 {
		t.Fatalf("the model expects %d new jobs for -replace, want 1", len(e.New))
	}
	return e
}

// mustMismatch checks that o is a mismatch naming want, and that its
// reproducer is written.
func mustMismatch(t *testing.T, o observed, want string) {
	t.Helper()
	_, problems := check(replaceExpect(t), o)
	if !strings.Contains(strings.Join(problems, "\n"), want) {
		t.Fatalf("mismatches %q, want one containing %q", problems, want)
	}
	dir := filepath.Join(t.TempDir(), "repro")
	if err := writeRepro(dir, failure{Seq: checkSeq(), Problems: problems, CLI: "terraform", Root: "/repo", Provider: "/repo"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.tf", "run.sh", "mismatch.txt", "data/a/r0.psv", "step-01/main.tf", "step-03/data/a/r0.psv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("reproducer: %v", err)
		}
	}
	script, _ := os.ReadFile(filepath.Join(dir, "run.sh"))
	if !strings.Contains(string(script), "run 'apply' '-auto-approve' '-input=false' '-replace=etl_import.r0[0]'") {
		t.Errorf("run.sh lacks the -replace:\n%s", script)
	}
}

func TestCheck_passes(t *testing.T) {
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "2"}},
		Jobs: []emulator.Job{emuJob("1", "CSV"), emuJob("2", "PSV")}, Before: 1}
	if _, problems := check(replaceExpect(t), o); len(problems) > 0 {
		t.Fatalf("mismatches %q, want none", problems)
	}
}

func TestCheck_oneJobTooMany(t *testing.T) {
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "2"}},
		Jobs: []emulator.Job{emuJob("1", "CSV"), emuJob("2", "PSV"), emuJob("3", "PSV")}, Before: 1}
	mustMismatch(t, o, "2 jobs started, 1 expected")
}

func TestCheck_oneJobTooFew(t *testing.T) {
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "1"}},
		Jobs: []emulator.Job{emuJob("1", "CSV")}, Before: 1}
	mustMismatch(t, o, "0 jobs started, 1 expected")
}

func TestCheck_wrongFormat(t *testing.T) {
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "2"}},
		Jobs: []emulator.Job{emuJob("1", "CSV"), emuJob("2", "CSV")}, Before: 1}
	mustMismatch(t, o, "received format CSV, encoding UTF-8; want PSV, UTF-8")
}

func TestCheck_cancelledAndTainted(t *testing.T) {
	cancelled := emuJob("2", "PSV")
	cancelled.Status = emulator.StatusCancelled
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "2", Tainted: true}},
		Jobs: []emulator.Job{emuJob("1", "CSV"), cancelled}, Before: 1}
	_, problems := check(replaceExpect(t), o)
	got := strings.Join(problems, "\n")
	for _, want := range []string{"tainted: true, want false", "job 2 is CANCELLED, want it cancelled: false"} {
		if !strings.Contains(got, want) {
			t.Errorf("mismatches %q, want one containing %q", problems, want)
		}
	}
}

// swapExpect is the model's expectation for the last of steps, on a block
// of two CSV instances waited for whose first apply started jobs "1" and
// "2"; a later new job is numbered from "3".
func swapExpect(t *testing.T, steps ...step) (*model, expect) {
	t.Helper()
	m := newModel(config{Blocks: []block{{Name: "r0", Count: 2, Kind: kindPath, Dir: "a", Wait: true}}})
	m.op(step{Kind: stepOp, Name: "apply"})
	m.learn(map[string]string{"etl_import.r0[0]": "1", "etl_import.r0[1]": "2"})
	var e expect
	for _, s := range steps {
		m.releases()
		e = m.op(s)
	}
	if len(e.Swap) != 1 {
		t.Fatalf("swap groups %v, want one", e.Swap)
	}
	return m, e
}

func swapState(r0, r1 string) map[string]stateInst {
	return map[string]stateInst{"etl_import.r0[0]": {ID: r0}, "etl_import.r0[1]": {ID: r1}}
}

// Two tainted objects with identical data: each settles one of the jobs,
// in either order; a job lost or held twice is a mismatch.
func TestCheck_twoTaintedMayExchange(t *testing.T) {
	steps := []step{{Kind: stepOp, Name: "taint"}, {Kind: stepOp, Name: "taint", Index: 1}, {Kind: stepOp, Name: "apply"}}
	jobs := []emulator.Job{emuJob("1", "CSV"), emuJob("2", "CSV")}
	for _, c := range []struct {
		r0, r1 string
		want   string // "" : no mismatch
	}{
		{"1", "2", ""},
		{"2", "1", ""},
		{"1", "1", "etl_import.r0[1] holds job 1, as etl_import.r0[0] does"},
		{"2", "2", "job 1, resumed, is held by none"},
	} {
		m, e := swapExpect(t, steps...)
		ids, problems := check(e, observed{State: swapState(c.r0, c.r1), Jobs: jobs, Before: 2})
		got := strings.Join(problems, "\n")
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s, %s: mismatches %q, want %q", c.r0, c.r1, problems, c.want)
		}
		if c.want == "" {
			m.learn(ids)
			if m.state["etl_import.r0[0]"].Job != c.r0 || m.state["etl_import.r0[1]"].Job != c.r1 {
				t.Errorf("%s, %s: the model learnt %s, %s", c.r0, c.r1, m.state["etl_import.r0[0]"].Job, m.state["etl_import.r0[1]"].Job)
			}
		}
	}
}

// One tainted, the other replaced in the same apply: one new job, and
// either object may hold it; the resumed job must stay held, by one.
func TestCheck_taintedAndReplacedMayExchange(t *testing.T) {
	steps := []step{{Kind: stepOp, Name: "taint"}, {Kind: stepOp, Name: "replace", Index: 1}}
	old := []emulator.Job{emuJob("1", "CSV"), emuJob("2", "CSV")}
	for _, c := range []struct {
		r0, r1 string
		jobs   []emulator.Job
		want   []string
	}{
		{"1", "3", append(old, emuJob("3", "CSV")), nil},
		{"3", "1", append(old, emuJob("3", "CSV")), nil},
		{"3", "2", append(old, emuJob("3", "CSV")), []string{"job 1, resumed, is held by none",
			"etl_import.r0[1] holds job 2, neither a resumed job [1] nor a new job of its own"}},
		{"3", "4", append(old, emuJob("3", "CSV"), emuJob("4", "CSV")), []string{"2 jobs started, 1 expected",
			"job 1, resumed, is held by none"}},
		{"1", "1", old, []string{"0 jobs started, 1 expected", "etl_import.r0[1] holds job 1, as etl_import.r0[0] does"}},
		{"3", "1", append(old, emuJob("3", "PSV")), []string{"etl_import.r0[0]: job 3 received format PSV, encoding UTF-8; want CSV, UTF-8"}},
	} {
		_, e := swapExpect(t, steps...)
		_, problems := check(e, observed{State: swapState(c.r0, c.r1), Jobs: c.jobs, Before: 2})
		got := strings.Join(problems, "\n")
		if len(c.want) == 0 && len(problems) > 0 {
			t.Errorf("%s, %s: mismatches %q, want none", c.r0, c.r1, problems)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s, %s: mismatches %q, want one containing %q", c.r0, c.r1, problems, w)
			}
		}
	}
}

// A wait cut short in such an apply: whichever object holds the new job
// is tainted, fails the apply, and holds the hung job in the model.
func TestCheck_exchangedHungJob(t *testing.T) {
	steps := []step{{Kind: stepOp, Name: "taint"}, {Kind: stepOp, Name: "replace", Index: 1, Fault: "hang"}}
	jobs := []emulator.Job{emuJob("1", "CSV"), emuJob("2", "CSV"), emuJob("3", "CSV")}
	m, e := swapExpect(t, steps...)
	st := map[string]stateInst{"etl_import.r0[0]": {ID: "3", Tainted: true}, "etl_import.r0[1]": {ID: "1"}}
	ids, problems := check(e, observed{Failed: true, State: st, Jobs: jobs, Before: 2})
	if len(problems) > 0 {
		t.Fatalf("mismatches %q, want none", problems)
	}
	m.learn(ids)
	if r0 := m.state["etl_import.r0[0]"]; !r0.Hung || !r0.Tainted || m.state["etl_import.r0[1]"].Hung {
		t.Errorf("the model holds r0[0] %+v, r0[1] %+v; want r0[0] hung and tainted", *r0, *m.state["etl_import.r0[1]"])
	}
	_, e = swapExpect(t, steps...)
	st["etl_import.r0[0]"] = stateInst{ID: "3"} // not tainted, and the apply succeeded
	_, problems = check(e, observed{State: st, Jobs: jobs, Before: 2})
	got := strings.Join(problems, "\n")
	for _, w := range []string{"the command succeeded, want it to fail", "etl_import.r0[0] tainted: false, want true"} {
		if !strings.Contains(got, w) {
			t.Errorf("mismatches %q, want one containing %q", problems, w)
		}
	}
}
