package explore

import (
	"maps"
	"slices"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// A killed apply (killNames) in the model: what it was planned to do, for
// the loose check of the kill step itself (check_kill_test.go), then what
// it left, learnt from what was observed: which jobs the state holds, and
// the journal's orphans, the jobs it started that no state holds, each
// with its candidate instances' definition and priors. After that, the
// model's count of jobs for the next step is exact again (or a range where
// identical definitions may exchange).

// killPlan is what a killed apply was planned to do.
type killPlan struct {
	Fault    string
	Prev     map[string]*inst           // the state before it
	Planned  map[string]def             // instances it may give a new job, with its definition
	Prior    map[string]string          // their prior ("" a new or tainted object)
	Resume   map[string]map[string]bool // per instance, the jobs it may resume (a tainted one, an entry)
	Waits    map[string]bool            // instances whose create waits (wait_for_completion)
	Max      int                        // the most jobs it may start
	Before   map[string]bool            // the journal's jobs before it
	Triggers map[string]int             // the triggers before it
	Old      bool                       // the previous release of the provider ran it
}

// hangs says whether the jobs the apply starts hang: a wait kill's, a
// hang fault's (not a kill-upload's, nor a plain apply's).
func (kp killPlan) hangs() bool {
	switch kp.Fault {
	case "kill-wait", "kill-provider", "interrupt", "hang", "hang-error":
		return true
	}
	return false
}

// fallback is the fault an apply with kill fault meets if the kill does
// not fire: the wait kills' jobs hang all the same.
func fallback(kill string) string {
	if kill == "kill-upload" {
		return ""
	}
	return "hang"
}

// killable says whether a kill can be modelled now: no imported instance
// waits for an apply to adopt its configuration (the kill may come before
// or after that update), with the previous release every instance is new
// (its journal records no prior), and every file can be read and every
// template is there (lifeReady).
func (m *model) killable() bool {
	for _, st := range m.state {
		if st.Adopt && !st.Tainted {
			return false
		}
	}
	return (!m.old || len(m.state) == 0) && m.lifeReady()
}

// opKill plans operation s, whose fault is a kill: its expectation if the
// kill does not fire (the fallback fault's), and its plan.
func (m *model) opKill(s step) (killPlan, expect) { return m.opPlanned(s, fallback(s.Fault)) }

// opPlanned plans operation s run with fault: its expectation, and its
// plan, for learnKill to take what it left if it did not do as expected
// (a kill's, or a step of the previous release: takeScene).
func (m *model) opPlanned(s step, fault string) (killPlan, expect) {
	kp := killPlan{Fault: s.Fault, Prev: map[string]*inst{}, Planned: map[string]def{}, Resume: map[string]map[string]bool{},
		Waits: map[string]bool{}, Before: map[string]bool{}, Triggers: maps.Clone(m.triggers), Old: m.old}
	for a, st := range m.state {
		c := *st
		kp.Prev[a] = &c
	}
	for _, e := range m.journal {
		kp.Before[e.Job] = true
	}
	s.Fault = fault
	e := m.op(s)
	kp.Prior = maps.Clone(m.made)
	for a, d := range e.New {
		kp.Planned[a] = d
	}
	kp.Max = len(e.New)
	for _, g := range e.Swap {
		for _, a := range g.Members {
			kp.Planned[a], kp.Resume[a] = g.Def, map[string]bool{}
			maps.Copy(kp.Resume[a], g.Tainted)
			maps.Copy(kp.Resume[a], g.Entries)
		}
		kp.Max += g.news(g.Min)
	}
	want := m.cfg.instances()
	for a := range kp.Planned {
		kp.Waits[a] = m.cfg.Blocks[want[a]].Wait
	}
	return kp, e
}

// learnKill learns what the killed apply kp left, from o: the state
// (instances holding their previous job, a new one, or a resumed one;
// the ones not there are gone), the triggers, and the journal: entries
// the state holds or the apply dropped are gone, the new jobs no state
// holds are orphans.
func (m *model) learnKill(kp killPlan, o observed) {
	newJobs := o.Jobs[min(o.Before, len(o.Jobs)):]
	isNew := map[string]bool{}
	for _, j := range newJobs {
		isNew[j.ID] = true
	}
	want := m.cfg.instances()
	state, held := map[string]*inst{}, map[string]bool{}
	for a, got := range o.State {
		held[got.ID] = true
		var n *inst
		if prev := kp.Prev[a]; prev != nil && prev.Job == got.ID {
			c := *prev
			n = &c
		} else {
			n = &inst{Job: got.ID, Def: kp.Planned[a], Hung: isNew[got.ID] && kp.hangs()}
			if bi, ok := want[a]; ok {
				n.Cancel, n.Src = m.cfg.Blocks[bi].Cancel, srcOf(m.cfg.Blocks[bi])
			}
		}
		n.Tainted = got.Tainted
		state[a] = n
	}
	for _, e := range m.journal {
		if _, present := o.State[dropped(e.Drop)]; present {
			e.Drop = "" // a destroy that did not happen
		}
	}
	m.sweep(held)
	m.state, m.triggers = state, maps.Clone(o.Triggers)
	if m.triggers == nil {
		m.triggers = map[string]int{}
	}
	m.learnOrphans(kp, o, newJobs, held)
	m.swap, m.made = nil, nil
}

// dropped is the instance a destroy's Drop names ("" for a create's).
func dropped(by string) string {
	if len(by) > len("destroy ") && by[:len("destroy ")] == "destroy " {
		return by[len("destroy "):]
	}
	return ""
}

// learnOrphans adds the journal's orphans of a killed apply: each new job
// no state holds, for the instances planned to get a job of its data that
// hold none (its candidates), with their priors. The new jobs created
// anew note the entries that were there before.
func (m *model) learnOrphans(kp killPlan, o observed, newJobs []emulator.Job, held map[string]bool) {
	holding := map[string]bool{} // instances that hold a new job
	for a, got := range o.State {
		if kp.Prev[a] == nil || kp.Prev[a].Job != got.ID {
			holding[a] = true
		}
	}
	skip := map[string]bool{}
	for _, j := range newJobs {
		if !held[j.ID] {
			skip[j.ID] = true
		}
	}
	for _, a := range sortedKeys(o.State) {
		if id := o.State[a].ID; holding[a] && kp.Prior[a] == "" && !kp.Old && slices.ContainsFunc(newJobs, func(j emulator.Job) bool { return j.ID == id }) {
			m.note(id, kp.Planned[a], skip)
		}
	}
	m.learnResumed(kp)
	for _, j := range newJobs {
		if held[j.ID] {
			continue
		}
		e, news := kp.orphan(j, holding)
		if e == nil {
			continue
		}
		if news && !kp.Old {
			m.note(j.ID, e.Def, skip)
		}
		m.journal = append(m.journal, e)
	}
}

// learnResumed adds the journal's entries of the tainted jobs the killed
// apply may have resumed: the provider wrote each one when a create took
// it, for the change of that create (the tainted job itself, or the job
// another member of its group replaced, which may have taken it), and a
// state that still holds the job removes it only at the next refresh
// (refreshJournal); one that dropped the tainted object (a local state
// file that got the destroy, or an import in its place) leaves it for the
// next create of its definition.
func (m *model) learnResumed(kp killPlan) {
	for _, a := range sortedKeys(kp.Resume) {
		for _, job := range sortedKeys(kp.Resume[a]) {
			if !tainted(kp.Prev, job) || slices.ContainsFunc(m.journal, func(e *entry) bool { return e.Job == job }) {
				continue
			}
			e := newEntry(job, kp.Planned[a], job)
			for _, b := range sortedKeys(kp.Planned) {
				if kp.Planned[b] == e.Def {
					e.Priors[kp.Prior[b]] = true
				}
			}
			e.Maybe = true // the create that took it may not have run before the kill
			m.journal = append(m.journal, e)
		}
	}
}

// tainted reports whether job is the job of a tainted instance in prev.
func tainted(prev map[string]*inst, job string) bool {
	for _, st := range prev {
		if st.Tainted && st.Job == job {
			return true
		}
	}
	return false
}

// orphan is the entry of job j that a killed apply started and no state
// holds (nil: the previous release removed it, its create having
// returned), and whether all its candidates were created anew.
func (kp killPlan) orphan(j emulator.Job, holding map[string]bool) (*entry, bool) {
	e := &entry{Job: j.ID, Priors: map[string]bool{}, Suspect: map[string]bool{}, Hung: kp.hangs()}
	waits := map[bool]bool{}
	for _, a := range sortedKeys(kp.Planned) {
		d := kp.Planned[a]
		if holding[a] || len(differs(d, j)) > 0 {
			continue
		}
		e.Def, e.Priors[kp.Prior[a]], waits[kp.Waits[a]] = d, true, true
	}
	if len(e.Priors) == 0 { // no candidate left: a job the check reports; any definition of its data
		e.Priors[""] = true
		for _, d := range kp.Planned {
			if len(differs(d, j)) == 0 {
				e.Def = d
			}
		}
	}
	if kp.Old && !waits[true] && kp.hangs() { // its create returned: the previous release removed its entry
		return nil, false
	}
	e.Maybe = kp.Old && waits[false] && kp.hangs()
	return e, len(e.Priors) == 1 && e.Priors[""]
}
