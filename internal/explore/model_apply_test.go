package explore

import (
	"slices"
	"strings"
)

// The model of an apply: which instances get a new job, which resume one
// (a tainted job handed over, or a journal entry settled), and what the
// check then learns.

// apply is a plain apply (replace == ""), or one with -replace=replace.
func (m *model) apply(replace, fault string, e *expect) {
	want := m.cfg.instances()
	if planFails(m.cfg, m.state) {
		e.Fail = true // a new object's file cannot be read: the plan fails, nothing changes
		return
	}
	m.made = map[string]string{}
	for _, a := range sortedKeys(m.state) {
		if _, ok := want[a]; !ok { // count lowered, or the resource removed: destroyed; its job was released
			m.dropDestroyed("destroy "+a, m.state[a].Job)
			delete(m.state, a)
		}
	}
	hang := fault == "hang" || fault == "hang-error"
	created := map[def][]string{} // instances given a new job or resuming a tainted one, by definition
	resumes, stuck := map[string]bool{}, map[string]bool{}
	for _, a := range sortedKeys(want) {
		b := m.cfg.Blocks[want[a]]
		switch why := m.blocked(a, b, replace); {
		case why != runs: // what it needs cannot be read: it keeps its job, untouched
			e.Fail, stuck[b.Name] = true, stuck[b.Name] || why == atReplace
			continue
		case m.needsJob(a, b, replace) && m.lost(b):
			e.Fail = true
			delete(m.state, a)
			continue
		}
		if m.needsJob(a, b, replace) {
			m.made[a] = m.prior(a, b)
			st := &inst{Def: defOf(b), Cancel: b.Cancel, Src: srcOf(b), Submit: b.Submit}
			if hang {
				st.Hung, st.HangErr, st.Tainted = true, fault == "hang-error", b.Wait
			}
			m.state[a], e.New[a] = st, st.Def
			created[st.Def] = append(created[st.Def], a)
			continue
		}
		st := m.state[a]
		if st.Adopt {
			st.Def, st.Adopt = defOf(b), false
		} else if st.Tainted {
			m.made[a] = "" // a create of a tainted object: it may settle an entry
			resumes[a] = true
			created[st.Def] = append(created[st.Def], a)
		}
		st.Tainted, st.Cancel, st.Src, st.Submit = false, b.Cancel, srcOf(b), b.Submit // resumed, or nothing to do
	}
	inGroup := m.groups(created, resumes, want, fault, e)
	for a := range e.New { // a wait that timed out fails the apply (a swap group's: as held)
		e.Fail = e.Fail || (!inGroup[a] && m.state[a].Hung && m.state[a].Tainted)
	}
	for _, b := range m.cfg.Blocks {
		if !stuck[b.Name] { // the trigger's update waits for the Delete of the objects it replaces
			m.triggers[b.Name] = b.Trigger
		}
	}
}

// prior is the change a create of instance a of block b is for, as the
// journal records it: "" for a new object (not in the state, or tainted:
// Terraform plans a tainted object as new), else the replacement of the
// job it holds; the create first drops what that replacement drops.
func (m *model) prior(a string, b block) string {
	st := m.state[a]
	if st == nil {
		return ""
	}
	m.dropFor(a, st.Job, defOf(b))
	if st.Tainted {
		return ""
	}
	return st.Job
}

// groups forms the swap groups of one apply from the instances created or
// resumed, by definition (see group_test.go); it takes their members out
// of e.New and returns them.
func (m *model) groups(created map[def][]string, resumes map[string]bool, want map[string]int, fault string, e *expect) map[string]bool {
	hang := fault == "hang" || fault == "hang-error"
	inGroup := map[string]bool{}
	for _, d := range sortedDefs(created) {
		members := created[d]
		resumed := map[string]bool{}
		for _, a := range members {
			if resumes[a] {
				resumed[m.state[a].Job] = true
			}
		}
		entries := m.settleable(d)
		if len(entries) == 0 && (len(members) < 2 || len(resumed) == 0) {
			continue
		}
		lo, hi := m.settleRange(members, len(resumed), entries)
		g := group{Members: members, Def: d, Tainted: resumed, Entries: map[string]bool{}, Min: lo, Max: hi}
		for _, en := range entries {
			g.Entries[en.Job] = true
		}
		e.Swap = append(e.Swap, g)
		if m.swap == nil {
			m.swap = map[string]alt{}
		}
		for _, a := range members {
			b := m.cfg.Blocks[want[a]]
			n := inst{Def: d, Cancel: b.Cancel, Src: srcOf(b), Submit: b.Submit}
			if hang {
				n.Hung, n.HangErr, n.Tainted = true, fault == "hang-error", b.Wait
			}
			m.swap[a], e.HangNew[a], inGroup[a] = alt{New: n, Resumed: resumed, Entries: g.Entries}, n.Tainted, true
			delete(e.New, a)
		}
	}
	return inGroup
}

// sortedDefs is the keys of a map by definition, in a fixed order.
func sortedDefs[V any](m map[def]V) []def {
	out := make([]def, 0, len(m))
	for d := range m {
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y def) int { return strings.Compare(x.String(), y.String()) })
	return out
}

// needsJob says whether instance a of block b must get a new job: it is
// not in the state, -replace names it or its trigger changed or, on a CLI
// that replaces for it, is created (untainted:
// either, for a tainted object, is planned as the taint alone), what
// defines its job changed as far as the plan sees (seen), or it is
// tainted and its job did not import, or its job did not import and
// keep_failed does not keep it (replacesFailed). A
// tainted job that imported or may still (timed out, interrupted, taint)
// is resumed; an imported one is adopted, unless it was tainted before
// that apply: with no known definition, it is replaced.
func (m *model) needsJob(a string, b block, replace string) bool {
	st := m.state[a]
	applied, created := m.triggers[b.Name]
	switch {
	case st == nil:
		return true
	case a == replace && !st.Tainted:
		return true
	case created && applied != b.Trigger && !st.Tainted:
		return true
	case !created && m.createTriggers && !st.Tainted:
		return true
	case st.Adopt:
		return st.Tainted || replacesFailed(st, b)
	case st.Def != seen(b, st):
		return true
	}
	return st.Tainted && st.Ended != "" || replacesFailed(st, b)
}

// learn records the job the check found for a new instance, or for a
// member of a swap group: the job it holds, resumed, settled or new. The
// apply ended: the journal's entries it settled or dropped are gone, and
// the jobs created anew note the entries left (settle).
func (m *model) learn(ids map[string]string) {
	fresh := map[string]string{} // instance -> its new job
	for _, a := range sortedKeys(ids) {
		id := ids[a]
		sw, ok := m.swap[a]
		switch {
		case ok && (sw.Resumed[id] || sw.Entries[id]): // an entry's failed job, kept by keep_failed, stays failed
			m.state[a] = &inst{Job: id, Def: sw.New.Def, Cancel: sw.New.Cancel, Src: sw.New.Src, Submit: sw.New.Submit, Ended: m.entryStatus(id)}
		case ok:
			n := sw.New
			n.Job = id
			m.state[a], fresh[a] = &n, id
		case m.state[a] != nil:
			m.state[a].Job, fresh[a] = id, id
		}
	}
	held := map[string]bool{}
	for _, id := range ids {
		held[id] = true
	}
	m.claimFailed(fresh, held)
	m.sweep(held)
	for _, a := range sortedKeys(fresh) {
		if p, ok := m.made[a]; ok && p == "" {
			m.note(fresh[a], m.state[a].Def, nil)
		}
	}
	m.swap, m.made = nil, nil
}
