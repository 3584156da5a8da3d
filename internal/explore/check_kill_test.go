package explore

import (
	"fmt"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// checkKill checks a killed apply loosely (its kill fired): the command
// failed; every job it started carries the data of an instance planned to
// get a new job, no more of each definition than planned; each instance
// in the state holds its previous job, a job it started, or one it may
// have resumed, and no two the same; after Ctrl-C (interrupt), the state
// holds every job started, since each create returned; and no job is
// cancelled but the ones e names.
func checkKill(kp killPlan, e expect, o observed) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !o.Failed {
		add("the command succeeded, want it to fail (%s)", kp.Fault)
	}
	newJobs := o.Jobs[min(o.Before, len(o.Jobs)):]
	if len(newJobs) > kp.Max {
		add("%d jobs started, at most %d expected (%s)", len(newJobs), kp.Max, kp.Fault)
	}
	room := map[def]int{} // jobs of each definition the apply may start
	for _, d := range kp.Planned {
		room[d]++
	}
	jobDef := map[string]def{}
	for _, j := range newJobs {
		d, ok := fitting(j, room)
		if !ok {
			add("job %s started (%s), which no instance was planned to get (%s)", j.ID, describe(j), kp.Fault)
			continue
		}
		room[d]--
		jobDef[j.ID] = d
	}
	kp.checkHolders(o, jobDef, add)
	if kp.Fault == "interrupt" {
		held := map[string]bool{}
		for _, got := range o.State {
			held[got.ID] = true
		}
		for _, j := range newJobs {
			if !held[j.ID] {
				add("job %s started (%s), which the state does not hold after Ctrl-C: its create should have returned it", j.ID, describe(j))
			}
		}
	}
	checkCancelled(e.Cancelled, o.Jobs, add)
	return problems
}

// fitting is a definition of room (one with room left) whose data job j
// carries.
func fitting(j emulator.Job, room map[def]int) (def, bool) {
	for _, d := range sortedDefs(room) {
		if room[d] > 0 && len(differs(d, j)) == 0 {
			return d, true
		}
	}
	return def{}, false
}

// checkHolders checks what each instance in the state holds after a kill.
func (kp killPlan) checkHolders(o observed, jobDef map[string]def, add func(string, ...any)) {
	holder := map[string]string{}
	for _, a := range sortedKeys(o.State) {
		got := o.State[a]
		if other, dup := holder[got.ID]; dup {
			add("%s holds job %s, as %s does (%s)", a, got.ID, other, kp.Fault)
			continue
		}
		holder[got.ID] = a
		prev, planned := kp.Prev[a], kp.Planned[a]
		d, started := jobDef[got.ID]
		switch {
		case prev != nil && prev.Job == got.ID:
		case started && kp.planned(a) && d == planned:
		case kp.Resume[a][got.ID]:
		case prev == nil && !kp.planned(a):
			add("%s is in the state (job %s), which the killed apply was not to create (%s)", a, got.ID, kp.Fault)
		default:
			was := "none"
			if prev != nil {
				was = "job " + prev.Job
			}
			add("%s holds job %s, neither its job before (%s) nor one this apply may have started or resumed for it (%s)", a, got.ID, was, kp.Fault)
		}
	}
}

// planned says whether instance a was planned to get a new job, or resume one.
func (kp killPlan) planned(a string) bool {
	_, ok := kp.Planned[a]
	return ok
}
