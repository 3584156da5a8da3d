package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The generator's simulation: each step run in the model as if the check
// passed, so that the next step fits the model's state; a kill as if it
// fired where something waits, leaving what Terraform with a local state
// file leaves (a remote state: nothing of that apply).

// simulate runs s in the model, new jobs getting made-up ids from next
// on; it returns the next id.
func simulate(m *model, s step, next int) int {
	switch {
	case s.Kind == stepEdit:
		m.cfg = applyEdit(m.cfg, s)
		return next
	case s.Name == "upgrade":
		m.old = false
		return next
	}
	if releasesFirst(s.Name) {
		m.releases()
	}
	if isKill(s.Fault) && !m.killable() {
		s.Fault = ""
	}
	if !isKill(s.Fault) {
		e := m.op(s)
		if e.Skip || e.Other {
			return next
		}
		ids, _ := assign(m, e, next)
		m.learn(ids)
		return next + len(ids)
	}
	kp, e := m.opKill(s)
	if e.Skip {
		return next
	}
	ids, fresh := assign(m, e, next)
	o, fired := fakeKill(m, kp, s, ids, fresh)
	if !fired {
		m.learn(ids)
	} else {
		m.learnKill(kp, o)
	}
	return next + len(ids)
}

// assign is one way e may come true: the ids each instance that gets or
// resumes a job holds (new ones made up from next on; a swap group's
// tainted members keep theirs, then entries are settled, up to Max), and
// which of them are new.
func assign(m *model, e expect, next int) (map[string]string, map[string]bool) {
	ids, fresh := map[string]string{}, map[string]bool{}
	give := func(a string) {
		ids[a], fresh[a] = fmt.Sprintf("sim-%d", next), true
		next++
	}
	for _, a := range sortedKeys(e.New) {
		give(a)
	}
	for _, g := range e.Swap {
		entries, room := sortedKeys(g.Entries), g.Max
		for _, a := range g.Members {
			if st := m.state[a]; st != nil && g.Tainted[st.Job] && room > 0 {
				ids[a], room = st.Job, room-1
			}
		}
		for _, a := range g.Members {
			switch {
			case ids[a] != "":
			case len(entries) > 0 && room > 0:
				ids[a], entries, room = entries[0], entries[1:], room-1
			default:
				give(a)
			}
		}
	}
	return ids, fresh
}

// fakeKill is what a kill is taken to leave, for the generator: whether it
// fires (a new job waits; for kill-upload, an upload beyond the ones let
// through), the jobs started, and the state: with a remote state (and
// not after Ctrl-C), the state before; else the creates that returned
// (not waiting; every one after Ctrl-C) hold their job, and the ones that
// wait are gone.
func fakeKill(m *model, kp killPlan, s step, ids map[string]string, fresh map[string]bool) (observed, bool) {
	news := sortedKeys(fresh)
	fired := slices.ContainsFunc(news, func(a string) bool { return kp.Waits[a] })
	if s.Fault == "kill-upload" {
		fired = len(news) > s.Value
		news = news[:min(s.Value, len(news))]
	}
	o := observed{Failed: true, State: map[string]stateInst{}, Triggers: map[string]int{}}
	for _, a := range news {
		o.Jobs = append(o.Jobs, jobOf(ids[a], kp.Planned[a]))
	}
	for a, st := range kp.Prev {
		o.State[a] = stateInst{ID: st.Job, Tainted: st.Tainted}
	}
	if m.remote && s.Fault != "interrupt" {
		for name, v := range kp.Triggers {
			o.Triggers[name] = v
		}
		return o, fired
	}
	for _, b := range m.cfg.Blocks {
		o.Triggers[b.Name] = b.Trigger
	}
	want := m.cfg.instances()
	for a := range o.State {
		if _, ok := want[a]; !ok {
			delete(o.State, a)
		}
	}
	for a, id := range ids {
		started := !fresh[a] || slices.Contains(news, a)
		returned := !fresh[a] || !kp.Waits[a] || s.Fault == "interrupt" || s.Fault == "kill-upload"
		switch {
		case started && returned:
			o.State[a] = stateInst{ID: id, Tainted: fresh[a] && kp.Waits[a] && s.Fault == "interrupt"}
		case kp.Prev[a] == nil || kp.Prev[a].Job != id:
			delete(o.State, a)
		}
	}
	return o, fired
}

// jobOf is a job as the emulator records it, with the data of d.
func jobOf(id string, d def) emulator.Job {
	j := emulator.Job{ID: id, TemplateID: d.Template, Status: emulator.StatusCompleted}
	if d.Rows {
		rows := datasets[d.Data]
		j.Upload = &emulator.Upload{Kind: "data", Header: rows[0], Rows: rows[1:], RowCount: len(rows) - 1}
		return j
	}
	sum := sha256.Sum256(fileBytes(d.Data, slices.Index(formats, d.Format), slices.Index(encodings, d.Encoding)))
	j.Upload = &emulator.Upload{Kind: "file", Format: d.Format, Encoding: d.Encoding, SHA256: hex.EncodeToString(sum[:])}
	return j
}

// clone is a copy of m that shares nothing with it.
func (m *model) clone() *model {
	c := *m
	c.cfg = m.cfg.clone()
	c.cancelled, c.deleted = maps.Clone(m.cancelled), maps.Clone(m.deleted)
	c.swap, c.made, c.stray = nil, nil, slices.Clone(m.stray)
	c.state, c.triggers, c.journal = cloneSpace(m.state, m.triggers, m.journal)
	c.spaces = map[string]*space{}
	for name, sp := range m.spaces {
		st, tr, j := cloneSpace(sp.state, sp.triggers, sp.journal)
		c.spaces[name] = &space{state: st, triggers: tr, journal: j}
	}
	return &c
}

// cloneSpace is a copy of a workspace's state, triggers and journal.
func cloneSpace(state map[string]*inst, triggers map[string]int, journal []*entry) (map[string]*inst, map[string]int, []*entry) {
	st := map[string]*inst{}
	for a, in := range state {
		c := *in
		st[a] = &c
	}
	var j []*entry
	for _, e := range journal {
		c := *e
		c.Priors, c.Suspect = maps.Clone(e.Priors), maps.Clone(e.Suspect)
		j = append(j, &c)
	}
	return st, maps.Clone(triggers), j
}

// killFires says whether kill step s would fire now, as simulated.
func killFires(m *model, s step) bool {
	c := m.clone()
	c.releases()
	if !c.killable() {
		return false
	}
	kp, e := c.opKill(s)
	if e.Skip {
		return false
	}
	ids, fresh := assign(c, e, 0)
	_, fired := fakeKill(c, kp, s, ids, fresh)
	return fired
}

// plannedNews is how many new jobs kill step s is planned to start now.
func plannedNews(m *model, s step) int {
	c := m.clone()
	c.releases()
	_, e := c.opKill(s)
	_, fresh := assign(c, e, 0)
	return len(fresh)
}
