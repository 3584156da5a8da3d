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
