package explore

import "slices"

// The journal of started jobs, as docs/guides/exactly-once.md
// states it ("The journal of started jobs", "Which apply resumes a job",
// "How long an entry lives"), one journal per directory and workspace.
// The model keeps only what a killed apply left: the entries of the jobs
// that no state holds. An entry is settled (its job resumed, 0 jobs) by a
// create of its definition, of a new or tainted object (any prior) or of
// the replacement of its prior job; it is dropped (not settled: a new job
// starts) by the replacement of its prior job with other data, by the
// destroy of its prior job, and by the replacement or destroy of a job
// created anew for other data while it was unsettled (its instance "may be
// its resource": the entry is suspect of that job). A job that ended in
// ERROR, CANCELLED or EXPIRED imported nothing: the create that claims it
// keeps it if its keep_failed is on (settled, 0 jobs), else starts a new
// job; a purged one is never settled.

// entry is one job of the journal that no state holds.
type entry struct {
	Job string
	Def def
	// Priors is the change it was started for: "" a new object, else the
	// job it was to replace; more than one when which instance started
	// it is not known (a killed apply with identical definitions).
	Priors  map[string]bool
	Suspect map[string]bool // jobs of instances that may be its resource
	Hung    bool            // its job hangs until the next operation, then COMPLETES
	Maybe   bool            // the provider may have removed it (its create returned with the previous release, a drop of an unsure prior)
	// Ended is how its job ended (jobEnds, or PURGED), "" while it has
	// not: a purged one is never settled.
	Ended string
	// Drop is who drops it in the apply being planned (a create: its
	// address; a destroy: "destroy ADDRESS"), "" if nobody; creates of the
	// same apply that run first may still settle it.
	Drop string
}

// newEntry is an entry of job, for def, started for prior.
func newEntry(job string, d def, priors ...string) *entry {
	e := &entry{Job: job, Def: d, Priors: map[string]bool{}, Suspect: map[string]bool{}}
	for _, p := range priors {
		e.Priors[p] = true
	}
	return e
}

// removeEntry forgets the entry of job.
func (m *model) removeEntry(job string) {
	m.journal = slices.DeleteFunc(m.journal, func(e *entry) bool { return e.Job == job })
}

// forget removes the entries gone says, keeping their hung jobs to release.
func (m *model) forget(gone func(e *entry) bool) {
	m.journal = slices.DeleteFunc(m.journal, func(e *entry) bool {
		if gone(e) && e.Hung {
			m.stray = append(m.stray, e.Job)
		}
		return gone(e)
	})
}

// dropFor marks what the create of def d for instance by, replacing job
// q, drops: the entries whose prior is q and whose definition differs,
// and those q's instance is suspect of.
func (m *model) dropFor(by, q string, d def) {
	for _, e := range m.journal {
		switch {
		case e.Drop != "" || q == "":
		case e.Suspect[q]:
			e.Drop = by
		case e.Priors[q] && e.Def != d:
			m.dropPrior(e, by, q)
		}
	}
}

// dropDestroyed marks what the destroy of job q (terraform destroy, a
// count lowered, a resource removed) drops: the entries whose prior is q,
// and those q's instance is suspect of.
func (m *model) dropDestroyed(by, q string) {
	for _, e := range m.journal {
		switch {
		case e.Drop != "" || q == "":
		case e.Suspect[q]:
			e.Drop = by
		case e.Priors[q]:
			m.dropPrior(e, by, q)
		}
	}
}

// dropPrior drops e for its prior q: if q is one of several priors it
// may have, it may be gone (Maybe), else it has one of the others.
func (m *model) dropPrior(e *entry, by, q string) {
	if len(e.Priors) == 1 {
		e.Drop = by
		return
	}
	delete(e.Priors, q)
	e.Maybe = true
}

// sweep ends an operation for the journal: the entries whose job the
// state holds (held) are gone (settled, and the apply ended; or adopted),
// and so are the ones dropped and the ones whose job was purged.
func (m *model) sweep(held map[string]bool) {
	m.forget(func(e *entry) bool { return held[e.Job] || e.Drop != "" || e.Ended == purged })
}

// purged is how end-orphan has the service forget a job (orphanEnds).
const purged = "PURGED"

// claimFailed ends an apply for the entries whose job ended without
// importing: each create of the apply that started a new job (fresh, by
// instance) claimed one of its change if there was one (its keep_failed
// off), now gone.
func (m *model) claimFailed(fresh map[string]string, held map[string]bool) {
	for _, a := range sortedKeys(fresh) {
		p, ok := m.made[a]
		if !ok {
			continue
		}
		for _, e := range m.journal {
			if e.Ended != "" && e.Drop == "" && !held[e.Job] && e.Def == m.state[a].Def && (p == "" || e.Priors[p]) {
				e.Drop = a
				break
			}
		}
	}
}

// entryStatus is how the job of the journal's entry job ended ("" if it
// has not, or no entry holds it).
func (m *model) entryStatus(job string) string {
	for _, e := range m.journal {
		if e.Job == job {
			return e.Ended
		}
	}
	return ""
}

// refreshJournal is what the refresh and plan of an operation do to the
// journal: an entry whose job the state holds is removed (the guide: "a
// refresh or a plan finds its job in the state").
func (m *model) refreshJournal() {
	held := map[string]bool{}
	for _, st := range m.state {
		held[st.Job] = true
	}
	m.forget(func(e *entry) bool { return held[e.Job] })
}

// note records that job, of def d, was started by a create of a new (or
// tainted) object while the journal's entries of other definitions were
// unsettled: they are suspect of it. skip lists entries left out (the
// ones a killed apply has just left).
func (m *model) note(job string, d def, skip map[string]bool) {
	for _, e := range m.journal {
		if e.Def != d && !skip[e.Job] {
			e.Suspect[job] = true
		}
	}
}

// settleable is the entries a create of def d may claim: of d (one whose
// job ended without importing settles only with keep_failed: ranger).
func (m *model) settleable(d def) []*entry {
	var out []*entry
	for _, e := range m.journal {
		if e.Def == d {
			out = append(out, e)
		}
	}
	return out
}

// orphanEnds is how end-orphan ends a job of the journal: it ends in one
// of the final statuses that never settle, or the service forgets it.
var orphanEnds = []string{"ERROR", "CANCELLED", "EXPIRED", "PURGED"}
