package explore

import (
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// CI's seed 1116 on Terraform 1.16, sequence 1181: the previous release's
// first apply of four new objects of identical rows gave two of them one
// job. That sets the scene: takeScene notes it, and the model takes the
// state it left, so that the next apply of the provider under test is
// held to what it must do from there (no job), and passes.
func TestTakeScene_sharedJob(t *testing.T) {
	r0 := rows("r0", 0, false)
	r0.Count = 2
	r1 := r0
	r1.Name = "r1"
	m := newModel(config{Blocks: []block{r0, r1}})
	m.old = true
	kp, e := m.opPlanned(opApply, "")
	d := defOf(r0)
	jobs := []emulator.Job{jobOf("11", d), jobOf("12", d), jobOf("13", d)}
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "11"}, "etl_import.r0[1]": {ID: "12"},
		"etl_import.r1[0]": {ID: "12"}, "etl_import.r1[1]": {ID: "13"}}, Jobs: jobs}
	if p := m.takeScene(kp, e, o, false); len(p) == 0 {
		t.Fatal("one job for two objects: not noted")
	}
	m.old = false
	m.releases()
	e = m.op(opApply)
	if _, p := check(e, observed{State: o.State, Jobs: jobs, Before: 3}); len(p) > 0 {
		t.Errorf("the next apply, on the scene left: %q", p)
	}
	if e.Keep["etl_import.r1[0]"] != "12" {
		t.Errorf("r1[0] keeps %q, want the job it was left, 12", e.Keep["etl_import.r1[0]"])
	}
}

// A step of the previous release that does as the model says is learnt
// as any step: its new jobs are the ones the check found.
func TestTakeScene_asExpected(t *testing.T) {
	m := newModel(config{Blocks: []block{rows("r0", 0, false)}})
	m.old = true
	kp, e := m.opPlanned(opApply, "")
	o := observed{State: map[string]stateInst{"etl_import.r0[0]": {ID: "11"}}, Jobs: []emulator.Job{jobOf("11", defOf(m.cfg.Blocks[0]))}}
	if p := m.takeScene(kp, e, o, false); len(p) > 0 || m.state["etl_import.r0[0]"].Job != "11" {
		t.Errorf("noted %q; the model holds %+v", p, m.state["etl_import.r0[0]"])
	}
}
