package explore

import (
	"fmt"
	"maps"
	"slices"
)

// Where a state and a journal live: each workspace has its own (the local
// backend's; the http backend has no workspaces), and so does a second
// directory with the same configuration (other-dir), which shares the
// service alone. And what a user does with a job a killed apply left
// (adopt), or the service does with it (end-orphan).

// space is a workspace's state, triggers and journal.
type space struct {
	state    map[string]*inst
	triggers map[string]int
	journal  []*entry
}

// allSpaces is every workspace, the current one first.
func (m *model) allSpaces() []*space {
	out := []*space{{state: m.state, triggers: m.triggers, journal: m.journal}}
	for _, name := range sortedKeys(m.spaces) {
		out = append(out, m.spaces[name])
	}
	return out
}

// workspaces is the names of every workspace, sorted.
func (m *model) workspaces() []string {
	names := append(sortedKeys(m.spaces), m.ws)
	slices.Sort(names)
	return names
}

// workspace runs workspace-new (a new workspace, wN, selected) or
// workspace-select (another one, picked by s.Value); e.Arg is its name.
func (m *model) workspace(s step, e *expect) {
	names := m.workspaces()
	if m.remote || (s.Name == "workspace-select" && len(names) < 2) {
		e.Skip = true
		return
	}
	name := names[s.Value%len(names)]
	if name == m.ws {
		name = names[(s.Value+1)%len(names)]
	}
	if s.Name == "workspace-new" {
		for k := 1; ; k++ {
			if name = fmt.Sprintf("w%d", k); !slices.Contains(names, name) {
				break
			}
		}
	}
	m.spaces[m.ws] = &space{state: m.state, triggers: m.triggers, journal: m.journal}
	sp := m.spaces[name]
	if sp == nil {
		sp = &space{state: map[string]*inst{}, triggers: map[string]int{}}
	}
	delete(m.spaces, name)
	m.state, m.triggers, m.journal, m.ws, e.Arg = sp.state, sp.triggers, sp.journal, name, name
}

// otherDir is the apply in a second directory of the same configuration,
// with a state and a data directory of its own: every instance gets a new
// job (nothing of this directory's journal is settled there), and the
// command succeeds; but a file that cannot be read fails the plan (every
// object is new there), and a deleted template fails its creates. Nothing
// here changes.
func (m *model) otherDir() expect {
	e := expect{New: map[string]def{}, Keep: map[string]string{}, Tainted: map[string]bool{}, HangNew: map[string]bool{}, Other: true}
	e.Cancelled = maps.Clone(m.cancelled)
	if planFails(m.cfg, nil) {
		e.Fail = true
		return e
	}
	for a, bi := range m.cfg.instances() {
		if b := m.cfg.Blocks[bi]; m.lost(b) {
			e.Fail = true
		} else {
			e.New[a] = defOf(b)
		}
	}
	return e
}

// orphanOp runs adopt and end-orphan.
//
// adopt imports into the instance at target the job of an entry of its
// definition (the first), the command the guide gives for a job an apply
// did not settle: terraform state rm (if the instance is in the state),
// then terraform import; the import reads the job, which the state then
// holds, so its entry is gone. The next apply adopts the configuration
// without a job, or, if the job ended without importing, replaces it
// (unless keep_failed keeps it: replacesFailed).
//
// end-orphan ends the job of the journal's entry s.Index (modulo) among
// those in progress as orphanEnds[s.Value] says, and so the job of an
// instance that holds it (a tainted job a killed apply resumed).
func (m *model) orphanOp(s step, target string, e *expect) {
	var found *entry
	if s.Name == "adopt" {
		bi, ok := m.cfg.instances()[target]
		for _, en := range m.journal {
			if ok && found == nil && en.Ended != purged && en.Def == defOf(m.cfg.Blocks[bi]) {
				found = en
			}
		}
	} else if live := slices.DeleteFunc(slices.Clone(m.journal), func(en *entry) bool { return en.Ended != "" }); len(live) > 0 {
		found = live[s.Index%len(live)]
	}
	if found == nil {
		e.Skip = true
		return
	}
	if s.Name == "end-orphan" {
		found.Ended = orphanEnds[s.Value%len(orphanEnds)]
		e.End = release{Job: found.Job, Status: found.Ended}
		for _, st := range m.state { // a job the state holds too (its entry goes at the next refresh) ended with it
			if st.Job == found.Job {
				st.Ended, st.Purged = found.Ended, found.Ended == purged
			}
		}
		if e.End.Status == "CANCELLED" {
			m.cancelled[found.Job] = true
		}
		return
	}
	b := m.cfg.Blocks[m.cfg.instances()[target]]
	e.Arg, e.InState = found.Job, m.state[target] != nil
	m.state[target] = &inst{Job: found.Job, Def: found.Def, Adopt: true, Cancel: b.Cancel, Ended: found.Ended}
	m.removeEntry(found.Job)
}
