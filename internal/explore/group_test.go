package explore

// group is instances with identical definitions that one apply (re)creates
// where a job may be resumed: Terraform does not tell the provider which
// object a job belonged to, so they may exchange their jobs (the guide,
// "How it works, and where it ends"). Its members hold distinct jobs:
// between Min and Max resumed ones (a tainted job handed over, of
// Tainted, or a journal entry's, of Entries, settled), untainted, and new
// jobs of their own with the planned data for the rest. Without entries,
// every tainted job is held.
type group struct {
	Members  []string
	Def      def
	Tainted  map[string]bool
	Entries  map[string]bool
	Min, Max int
}

// news is how many new jobs g starts when its members resume k jobs.
func (g group) news(k int) int { return len(g.Members) - k }

// settleRange is the fewest and most jobs the creates of members (with
// tainted jobs handed over among them) may resume, whatever the order in
// which they run: each takes a tainted job handed over (by the destroy
// half of a replacement) or an entry it may settle (any, for a new or
// tainted object; one whose prior is the job it replaces, for a
// replacement) while one is left, else starts a job (choose). Entries dropped by a
// create or a destroy of the same apply are gone once that one ran; an
// entry that may not exist (Maybe) is tried both ways.
func (m *model) settleRange(members []string, tainted int, entries []*entry) (int, int) {
	actors := append([]string(nil), members...)
	isMember := map[string]bool{}
	for _, a := range members {
		isMember[a] = true
	}
	for _, e := range entries {
		if e.Drop != "" && !isMember[e.Drop] && !contains(actors, e.Drop) {
			actors = append(actors, e.Drop)
		}
	}
	if len(entries) == 0 {
		return min(tainted, len(members)), min(tainted, len(members))
	}
	lo, hi := len(members)+1, -1
	if len(actors) > 7 { // too many orders: any count
		return 0, min(len(entries)+tainted, len(members))
	}
	var maybe []int
	for i, e := range entries {
		if e.Maybe {
			maybe = append(maybe, i)
		}
	}
	for mask := 0; mask < 1<<len(maybe); mask++ {
		gone := make([]bool, len(entries))
		for bit, i := range maybe {
			gone[i] = mask&(1<<bit) != 0
		}
		r := ranger{m: m, actors: actors, isMember: isMember, entries: entries, lo: &lo, hi: &hi}
		r.run(make([]bool, len(actors)), tainted, gone, 0)
	}
	return lo, hi
}

// ranger enumerates the orders of settleRange.
type ranger struct {
	m        *model
	actors   []string
	isMember map[string]bool
	entries  []*entry
	lo, hi   *int
}

// run goes on from done (actors that ran), t tainted jobs left, gone
// (entries settled or dropped), n entries settled so far.
func (r ranger) run(done []bool, t int, gone []bool, n int) {
	all := true
	for i, a := range r.actors {
		if done[i] {
			continue
		}
		all = false
		done[i] = true
		g := append([]bool(nil), gone...)
		for j, e := range r.entries {
			g[j] = g[j] || e.Drop == a
		}
		if r.isMember[a] {
			r.choose(a, done, t, g, n)
		} else {
			r.run(done, t, g, n)
		}
		done[i] = false
	}
	if all {
		*r.lo, *r.hi = min(*r.lo, n), max(*r.hi, n)
	}
}

// choose lets member a take a tainted job or claim each entry it may, or
// start a job if none is sure to be its to take. An entry whose job ended
// without importing is settled only if a's keep_failed keeps it; else a
// starts a job all the same.
func (r ranger) choose(a string, done []bool, t int, gone []bool, n int) {
	p := r.m.made[a]
	bi, ok := r.m.cfg.instances()[a]
	keep := ok && r.m.cfg.Blocks[bi].KeepFailed
	must := t > 0
	if t > 0 {
		r.run(done, t-1, gone, n+1)
	}
	for j, e := range r.entries {
		if gone[j] || (p != "" && !e.Priors[p]) {
			continue
		}
		must = must || p == "" || len(e.Priors) == 1
		gone[j] = true
		r.run(done, t, gone, n+btoi(e.Ended == "" || keep))
		gone[j] = false
	}
	if !must {
		r.run(done, t, gone, n)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// jobs is the fewest and most new jobs e expects.
func (e expect) jobs() (int, int) {
	lo, hi := len(e.New), len(e.New)
	for _, g := range e.Swap {
		lo, hi = lo+g.news(g.Max), hi+g.news(g.Min)
	}
	return lo, hi
}
