package explore

import (
	"maps"
	"slices"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The reference model, written from the docs (the table of changes of
// docs/resources/import.md and docs/guides/interrupted-applies.md), not from the provider's
// code: after each operation, which job each instance in the state must
// hold (an old one, or one new job with the planned data), whether it is
// tainted, whether the operation fails, and which jobs are cancelled.

// opNames are the operations, in the order the figures list them.
// purge is no command: the service forgets the job (its history purged).
var opNames = []string{"apply", "plan-apply", "replace", "taint", "untaint", "refresh", "import", "destroy", "purge"}

// faultNames are the faults an apply may meet: every job it starts never
// ends (hang: the wait times out, and the job then COMPLETES), or ends in
// ERROR after the timed-out wait (hang-error); or two answers 429 to the
// starts, or 503 to the status reads or the submits, which are retried.
var faultNames = []string{"hang", "hang-error", "429-start", "503-get", "503-submit"}

// inst is the model of one resource instance in the state.
type inst struct {
	Job     string // the job the state must hold; "" until the check learns it
	Def     def    // what that job imports
	Tainted bool
	Adopt   bool // imported: the next apply adopts the configuration, no job
	Hung    bool // its job hangs (not released yet)
	HangErr bool // released as ERROR if tainted, else COMPLETED
	Failed  bool // its job ended in ERROR: it did not import
	Cancel  bool // cancel_on_destroy, as last applied
	Purged  bool // the service forgot its job: it answers 404
}

// model is what the state and the service must hold.
type model struct {
	cfg       config
	state     map[string]*inst
	triggers  map[string]int  // terraform_data inputs as applied, by block; absent: not created
	cancelled map[string]bool // jobs that must be CANCELLED
	swap      map[string]alt  // the last apply's swap groups' members, until learn
}

// alt is what a member of a swap group becomes, whichever job it holds:
// New as it is if it holds a new job (its Job learnt), or a resumed job,
// one of Resumed, settled with its own configuration.
type alt struct {
	New     inst
	Resumed map[string]bool
}

// expect is what must hold after one operation.
type expect struct {
	Fail      bool              // the command must fail
	Skip      bool              // its target is not there: nothing is run
	New       map[string]def    // instances that must hold one new job each
	Keep      map[string]string // instances that must hold this same job
	Tainted   map[string]bool   // every instance in the state: tainted?
	Cancelled map[string]bool   // the jobs that must be CANCELLED
	// Swap is the groups of instances with identical definitions that one
	// apply (re)creates, at least one of them resuming a tainted job:
	// Terraform does not tell the provider which object a job belonged to,
	// so they may exchange their jobs (the page, "How it works, and where
	// it ends"). New and Keep say one assignment; the check accepts any
	// other in which the group holds distinct jobs: every resumed job of
	// Keep, and as many new jobs as New asks for, with its data.
	Swap [][]string
	// HangNew: a member of a swap group that holds a new job is tainted,
	// and fails the command, since its wait timed out (its own
	// wait_for_completion); a member holding a resumed job is not tainted.
	HangNew map[string]bool
}

// release is a hung job to end now with Status.
type release struct{ Job, Status string }

func newModel(c config) *model {
	return &model{cfg: c.clone(), state: map[string]*inst{}, triggers: map[string]int{}, cancelled: map[string]bool{}}
}

// releases ends the hung jobs before an operation other than destroy: a
// tainted one as its fault says, another COMPLETED.
func (m *model) releases() []release {
	var out []release
	for _, st := range m.state {
		if !st.Hung {
			continue
		}
		st.Hung = false
		st.Failed = st.HangErr && st.Tainted
		status := emulator.StatusCompleted
		if st.Failed {
			status = emulator.StatusError
		}
		out = append(out, release{Job: st.Job, Status: status})
	}
	return out
}

// op runs operation s in the model and returns what must hold after it.
func (m *model) op(s step) expect {
	e := expect{New: map[string]def{}, Keep: map[string]string{}, Tainted: map[string]bool{}, HangNew: map[string]bool{}}
	m.swap = nil
	target := ""
	if s.Block < len(m.cfg.Blocks) {
		target = addr(m.cfg.Blocks[s.Block], s.Index)
	}
	_, inConfig := m.cfg.instances()[target]
	st := m.state[target]
	switch s.Name {
	case "apply", "plan-apply":
		m.apply("", s.Fault, &e)
	case "replace":
		if !inConfig {
			e.Skip = true
			break
		}
		m.apply(target, s.Fault, &e)
	case "taint", "untaint": // the CLI refuses to untaint an object that is not tainted
		if st == nil || st.Purged || st.Tainted == (s.Name == "taint") {
			e.Skip = true
			break
		}
		st.Tainted = s.Name == "taint"
	case "import": // state rm, then import by id; a job of another template is refused
		if st == nil || st.Purged || !inConfig || st.Def.Template != defOf(m.cfg.Blocks[s.Block]).Template {
			e.Skip = true
			break
		}
		st.Tainted, st.Adopt = false, true
	case "destroy":
		m.destroy()
	case "purge": // the state keeps it (NOT_FOUND); no job starts unless asked for
		if st == nil || st.Tainted || st.Hung {
			e.Skip = true
			break
		}
		st.Purged = true
	}
	return m.fill(e)
}

// fill completes e with the instances kept, the taints and the cancels.
func (m *model) fill(e expect) expect {
	for a, st := range m.state {
		if _, isNew := e.New[a]; !isNew {
			e.Keep[a] = st.Job
		}
		e.Tainted[a] = st.Tainted
	}
	e.Cancelled = maps.Clone(m.cancelled)
	return e
}

// destroy forgets every instance; an unfinished job is cancelled only with
// cancel_on_destroy. The triggers are destroyed too.
func (m *model) destroy() {
	for _, st := range m.state {
		if st.Hung && st.Cancel {
			m.cancelled[st.Job] = true
		}
	}
	m.state = map[string]*inst{}
	m.triggers = map[string]int{}
}

// apply is a plain apply (replace == ""), or one with -replace=replace.
func (m *model) apply(replace, fault string, e *expect) {
	want := m.cfg.instances()
	for a, bi := range want {
		st := m.state[a]
		if st != nil && st.Adopt && !st.Tainted && st.Def.Template != defOf(m.cfg.Blocks[bi]).Template {
			e.Fail = true // an imported job of another template fails the plan: nothing changes
			return
		}
	}
	for a := range m.state {
		if _, ok := want[a]; !ok {
			delete(m.state, a) // count lowered: destroyed; its job was released
		}
	}
	hang := fault == "hang" || fault == "hang-error"
	created := map[def][]string{} // instances given a new job or resuming a tainted one, by definition
	resumes := map[string]bool{}
	for _, a := range sortedKeys(want) {
		b := m.cfg.Blocks[want[a]]
		if m.needsJob(a, b, replace) {
			st := &inst{Def: defOf(b), Cancel: b.Cancel}
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
			resumes[a] = true
			created[st.Def] = append(created[st.Def], a)
		}
		st.Tainted, st.Cancel = false, b.Cancel // resumed, or nothing to do
	}
	inGroup := map[string]bool{}
	for _, d := range sortedDefs(created) {
		group := created[d]
		resumed := map[string]bool{}
		for _, a := range group {
			if resumes[a] {
				resumed[m.state[a].Job] = true
			}
		}
		if len(group) < 2 || len(resumed) == 0 {
			continue
		}
		e.Swap = append(e.Swap, group)
		if m.swap == nil {
			m.swap = map[string]alt{}
		}
		for _, a := range group {
			b := m.cfg.Blocks[want[a]]
			n := inst{Def: d, Cancel: b.Cancel}
			if hang {
				n.Hung, n.HangErr, n.Tainted = true, fault == "hang-error", b.Wait
			}
			m.swap[a], e.HangNew[a], inGroup[a] = alt{New: n, Resumed: resumed}, n.Tainted, true
		}
	}
	for a := range e.New { // a wait that timed out fails the apply (a swap group's: as held)
		e.Fail = e.Fail || (!inGroup[a] && m.state[a].Hung && m.state[a].Tainted)
	}
	for _, b := range m.cfg.Blocks {
		m.triggers[b.Name] = b.Trigger
	}
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
// not in the state, -replace names it or its trigger changed (untainted:
// either, for a tainted object, is planned as the taint alone), what
// defines its job changed, or it is tainted and its job did not import. A
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
	case st.Adopt:
		return st.Tainted
	case st.Def != defOf(b):
		return true
	}
	return st.Tainted && st.Failed
}

// learn records the job the check found for a new instance, or for a
// member of a swap group: the job it holds, resumed or new.
func (m *model) learn(ids map[string]string) {
	for a, id := range ids {
		sw, ok := m.swap[a]
		switch {
		case ok && sw.Resumed[id]:
			m.state[a] = &inst{Job: id, Def: sw.New.Def, Cancel: sw.New.Cancel}
		case ok:
			n := sw.New
			n.Job = id
			m.state[a] = &n
		case m.state[a] != nil:
			m.state[a].Job = id
		}
	}
	m.swap = nil
}
