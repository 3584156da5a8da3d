package provider

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// Four new objects of one definition in one apply (two blocks of count 2,
// the same rows, nothing submitted or waited for) each get a job of their
// own: a job one create started is never another's to settle, whatever
// the order in which their creates run and return. CI's explorer (seed
// 1116 on Terraform 1.16, sequence 1181) saw the previous release, 599e646,
// give two of them one job, "resumed" from an apply cut short when none
// was: its create released its hold on the job a moment before it removed
// the job's entry, and a create of the same rows took the entry then. The
// journal now tells an entry of this run from a killed run's (Entry.RunAlive)
// and settles none of this run's. Several rounds, each a new directory
// against a new emulator, as the explorer's sequences are.
func TestAccExactlyOnce_identicalNewObjects(t *testing.T) {
	for round := range 4 {
		e := newTestEmulator(t, emulator.Options{RunTime: 30 * time.Millisecond, RequiredColumns: emulator.RequiredColumnsOff})
		c := newBinaryCLI(t, "identical", e, false)
		c.vars(t, map[string]any{"template_id": emulator.GLActualsTemplateID})
		out := c.apply(t, true)
		if strings.Contains(out, "Resumed import job") {
			t.Errorf("round %d: an apply of new objects resumed a job:\n%s", round, out)
		}
		jobs := e.Jobs()
		started := map[string]bool{}
		for _, j := range jobs {
			started[j.ID] = true
		}
		held := map[string]string{}
		for a, s := range c.state(t) {
			if other, dup := held[s.ID]; dup || !started[s.ID] {
				t.Errorf("round %d: %s holds job %s (held by %q too; started: %t)", round, a, s.ID, other, started[s.ID])
			}
			held[s.ID] = a
		}
		if len(jobs) != 4 || len(held) != 4 {
			t.Errorf("round %d: %d jobs started, %d distinct jobs in the state %v; want 4 and 4", round, len(jobs), len(held), slices.Sorted(maps.Values(held)))
		}
		if j := c.journal(t); len(j) != 0 {
			t.Errorf("round %d: the journal keeps %q after the apply", round, j)
		}
	}
}
