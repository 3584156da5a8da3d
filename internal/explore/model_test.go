package explore

import (
	"maps"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// The reference model, written from the docs (the table of changes of
// docs/resources/import.md and docs/guides/interrupted-applies.md), not from the provider's
// code: after each operation, which job each instance in the state must
// hold (an old one, or one new job with the planned data), whether it is
// tainted, whether the operation fails, and which jobs are cancelled. A
// job that ended in ERROR, CANCELLED or EXPIRED imported nothing: the
// next apply replaces it with one new job, however that was seen, unless
// keep_failed keeps it (replacesFailed). The
// journal of started jobs (journal_test.go), killed applies
// (model_kill_test.go), workspaces (model_space_test.go) and the end of a
// resource's life (model_life_test.go) are apart.

// opNames are the operations, in the order the figures list them.
// purge is no command: the service forgets the job (its history purged);
// end-orphan neither: a job a killed apply left ends (or is purged);
// nor end-job: the service ends an instance's job in progress (endJob);
// upgrade switches from the previous release of the provider to this one;
// delete-template deletes a template on the service (model_life_test.go).
var opNames = []string{
	"apply", "plan-apply", "replace", "taint", "untaint", "refresh", "import", "destroy", "purge",
	"adopt", "end-orphan", "end-job", "workspace-new", "workspace-select", "other-dir", "upgrade", "delete-template",
}

// faultNames are the faults an apply may meet: every job it starts never
// ends (hang: the wait times out, and the job then COMPLETES), or ends in
// ERROR after the timed-out wait (hang-error); or two answers 429 to the
// starts, or 503 to the status reads or the submits, which are retried.
var faultNames = []string{"hang", "hang-error", "429-start", "503-get", "503-submit"}

// killNames are the kills an apply may meet (the figures' "kills:" line):
// terraform SIGKILLed while an upload is in flight (kill-upload) or while
// the provider waits for a job (kill-wait), the provider process SIGKILLed
// alone while it waits (kill-provider), or terraform sent SIGINT then
// (interrupt, Ctrl-C). The jobs of a wait kill hang, as with hang.
var killNames = []string{"kill-upload", "kill-wait", "kill-provider", "interrupt"}

func isKill(fault string) bool {
	for _, k := range killNames {
		if fault == k {
			return true
		}
	}
	return false
}

// inst is the model of one resource instance in the state.
type inst struct {
	Job     string // the job the state must hold; "" until the check learns it
	Def     def    // what that job imports
	Tainted bool
	Adopt   bool   // imported: the next apply adopts the configuration, no job
	Hung    bool   // its job hangs (not released yet)
	HangErr bool   // released as ERROR if tainted, else COMPLETED
	Ended   string // the status its job ended in without importing (jobEnds), "" if it did not
	Cancel  bool   // cancel_on_destroy, as last applied
	Submit  bool   // submit, as last applied
	Purged  bool   // the service forgot its job: it answers 404
	Src     string // where its data came from, as last applied (srcOf); "" imported
}

// model is what the state, the journal and the service must hold.
type model struct {
	cfg       config
	state     map[string]*inst // the current workspace's
	triggers  map[string]int   // terraform_data inputs as applied, by block; absent: not created
	journal   []*entry         // the current workspace's journal (journal_test.go)
	cancelled map[string]bool  // jobs that must be CANCELLED
	swap      map[string]alt   // the last apply's swap groups' members, until learn
	made      map[string]string
	ws        string            // the current workspace
	spaces    map[string]*space // the other workspaces
	remote    bool              // the http backend: no workspaces
	old       bool              // the previous release of the provider runs
	// createTriggers: the CLI replaces an instance whose
	// replace_triggered_by resource it creates (OpenTofu 1.12:
	// Action.CanTriggerDownstreamReplace counts Create; Terraform's
	// EvaluateReplaceTriggeredBy only Update and the replacements). The
	// trigger is created beside an instance in the state when a killed
	// apply lost the state and the instance was imported since.
	createTriggers bool
	stray          []string        // hung jobs that neither a state nor the journal holds now, to release
	deleted        map[string]bool // templates deleted on the service
}

// alt is what a member of a swap group becomes, whichever job it holds:
// New as it is if it holds a new job (its Job learnt), or a resumed job,
// one of Resumed (a tainted job handed over) or of Entries (a journal
// entry settled), with its own configuration.
type alt struct {
	New     inst
	Resumed map[string]bool
	Entries map[string]bool
}

// expect is what must hold after one operation.
type expect struct {
	Fail      bool              // the command must fail
	Skip      bool              // its target is not there: nothing is run
	New       map[string]def    // instances that must hold one new job each (swap groups apart)
	Keep      map[string]string // instances that must hold this same job
	Tainted   map[string]bool   // every instance in the state: tainted?
	Cancelled map[string]bool   // the jobs that must be CANCELLED
	// Swap is the groups of instances with identical definitions that one
	// apply (re)creates where a job may be resumed: a tainted one, or one
	// of the journal (group_test.go).
	Swap []group
	// HangNew: a member of a swap group that holds a new job is tainted,
	// and fails the command, since its wait timed out (its own
	// wait_for_completion); a member holding a resumed job is not tainted.
	HangNew map[string]bool
	// Arg is what the command needs beyond the address: the job to
	// import (adopt), the workspace (workspace-new, workspace-select).
	Arg string
	// InState: the target was in the state (adopt runs state rm first).
	InState bool
	// End is the job a step ends, and how (end-orphan).
	End release
	// Other: other-dir; the state checked is the second directory's.
	Other bool
}

// release is a hung job to end now with Status.
type release struct{ Job, Status string }

func newModel(c config) *model {
	return &model{cfg: c.clone(), state: map[string]*inst{}, triggers: map[string]int{}, cancelled: map[string]bool{},
		ws: "default", spaces: map[string]*space{}, deleted: map[string]bool{}}
}

// releasesFirst says whether the hung jobs are released before operation
// name: not before a destroy (its cancels), nor before end-job, which ends
// one of them its own way.
func releasesFirst(name string) bool { return name != "destroy" && name != "end-job" }

// jobEnds is how end-job ends a job in progress: as the service does, one
// that was submitted ends in ERROR or is CANCELLED by a user, one never
// submitted is CANCELLED or EXPIRES (the generator picks accordingly).
var jobEnds = []string{emulator.StatusError, emulator.StatusCancelled, emulator.StatusExpired}

// endJob runs end-job: the service ends the job in progress (hung) of
// instance st as jobEnds[s.Value] says; nothing runs. A job not in
// progress is not ended (the step is skipped).
func (m *model) endJob(s step, st *inst, e *expect) {
	if st == nil || !st.Hung {
		e.Skip = true
		return
	}
	st.Hung, st.Ended = false, jobEnds[s.Value%len(jobEnds)]
	e.End = release{Job: st.Job, Status: st.Ended}
	if st.Ended == emulator.StatusCancelled {
		m.cancelled[st.Job] = true
	}
}

// replacesFailed says whether the next plan of block b replaces the job
// of instance st because it imported nothing, as the resource page's
// table of changes says: the job ended in ERROR, CANCELLED or EXPIRED,
// however that was seen, and keep_failed is off; or keep_failed keeps
// it, but submit is turned on for a job that was never submitted and can
// no longer be (CANCELLED, EXPIRED). A tainted job that ended so is
// replaced whatever keep_failed says (needsJob); a purged one is kept.
func replacesFailed(st *inst, b block) bool {
	if st.Ended == "" || st.Purged {
		return false
	}
	unsubmitted := st.Ended == emulator.StatusCancelled || st.Ended == emulator.StatusExpired
	return !b.KeepFailed || (!st.Adopt && unsubmitted && b.Submit && !st.Submit)
}

// releases ends the hung jobs before an operation (releasesFirst), in
// every workspace: a tainted one as its fault says, another COMPLETED; a
// journal's (a killed apply's) COMPLETED.
func (m *model) releases() []release {
	var out []release
	for _, job := range m.stray {
		if !m.cancelled[job] {
			out = append(out, release{Job: job, Status: emulator.StatusCompleted})
		}
	}
	m.stray = nil
	for _, sp := range m.allSpaces() {
		for _, a := range sortedKeys(sp.state) {
			st := sp.state[a]
			if !st.Hung {
				continue
			}
			st.Hung = false
			status := emulator.StatusCompleted
			if st.HangErr && st.Tainted {
				status, st.Ended = emulator.StatusError, emulator.StatusError
			}
			out = append(out, release{Job: st.Job, Status: status})
		}
		for _, e := range sp.journal {
			if e.Hung {
				e.Hung = false
				out = append(out, release{Job: e.Job, Status: emulator.StatusCompleted})
			}
		}
	}
	return out
}

// op runs operation s in the model and returns what must hold after it.
func (m *model) op(s step) expect {
	e := expect{New: map[string]def{}, Keep: map[string]string{}, Tainted: map[string]bool{}, HangNew: map[string]bool{}}
	m.swap, m.made = nil, nil
	switch s.Name {
	case "apply", "plan-apply", "replace", "refresh", "destroy":
		m.refreshJournal()
	}
	target := m.target(s)
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
		st.Tainted, st.Adopt, st.Src, e.Arg = false, true, "", st.Job
	case "destroy": // its refresh plans the configuration: a new object's plan fails it (model_life_test.go)
		if e.Fail = len(m.state) > 0 && planFails(m.cfg, m.state); !e.Fail {
			m.destroy()
		}
	case "purge": // the state keeps it (NOT_FOUND); no job starts unless asked for
		if st == nil || st.Tainted || st.Hung {
			e.Skip = true
			break
		}
		st.Purged = true
	case "adopt", "end-orphan":
		m.orphanOp(s, target, &e)
	case "end-job":
		m.endJob(s, st, &e)
	case "workspace-new", "workspace-select":
		m.workspace(s, &e)
	case "other-dir":
		return m.otherDir()
	case "delete-template": // on the service: nothing runs, nothing changes now
		t := templates[s.Value%len(templates)]
		e.Skip = m.deleted[t]
		m.deleted[t] = true
	}
	return m.fill(e)
}

// target is the address of the instance s names ("" if its block is gone).
func (m *model) target(s step) string {
	if s.Block < len(m.cfg.Blocks) {
		return addr(m.cfg.Blocks[s.Block], s.Index)
	}
	return ""
}

// fill completes e with the instances kept, the taints and the cancels.
func (m *model) fill(e expect) expect {
	swapped := e.swapped()
	for a, st := range m.state {
		if _, isNew := e.New[a]; !isNew && !swapped[a] {
			e.Keep[a] = st.Job
		}
		e.Tainted[a] = st.Tainted
	}
	e.Cancelled = maps.Clone(m.cancelled)
	return e
}

// swapped is the members of e's swap groups.
func (e expect) swapped() map[string]bool {
	out := map[string]bool{}
	for _, g := range e.Swap {
		for _, a := range g.Members {
			out[a] = true
		}
	}
	return out
}

// destroy forgets every instance; an unfinished job is cancelled only with
// cancel_on_destroy. The triggers are destroyed too, and the journal drops
// what the destroyed jobs drop.
func (m *model) destroy() {
	for _, a := range sortedKeys(m.state) {
		st := m.state[a]
		if st.Hung && st.Cancel {
			m.cancelled[st.Job] = true
		} else if st.Hung {
			m.stray = append(m.stray, st.Job)
		}
		m.dropDestroyed("destroy "+a, st.Job)
	}
	m.sweep(nil)
	m.state = map[string]*inst{}
	m.triggers = map[string]int{}
}
