package explore

import (
	"maps"
	"math/rand/v2"
	"slices"
)

// The grammar: a first configuration, a first apply, then edits and
// operations drawn with these weights (the ones that matter most weigh
// most), the targets of operations picked among the instances the model
// holds, and faults attached to some applies.

var opWeights = map[string]int{
	"apply": 30, "plan-apply": 10, "replace": 12, "taint": 12, "untaint": 4,
	"refresh": 5, "import": 6, "destroy": 3, "purge": 3,
	"adopt": 6, "end-orphan": 3, "end-job": 6, "workspace-new": 2, "workspace-select": 3, "other-dir": 3,
}

var editWeights = map[string]int{
	"format": 12, "encoding": 10, "bytes": 10, "trigger": 10, "kind": 6, "content": 6,
	"move": 6, "template": 5, "submit": 5, "wait": 6, "count": 6, "cancel": 4, "keep": 5,
}

var faultWeights = map[string]int{
	"hang": 45, "hang-error": 25, "429-start": 10, "503-get": 10, "503-submit": 10,
	"kill-upload": 15, "kill-wait": 60, "kill-provider": 15, "interrupt": 15,
}

// rateWeights are shares, in percent: of sequences, those with the http
// backend (a remote state), those that start with the previous release of
// the provider and upgrade (upgradeSteps), and those that end with a
// template deleted on the service (delete-template); of steps, the chains
// of the end of a resource's life (life; gen_life_test.go).
var rateWeights = map[string]int{"remote": 33, "upgrade": 25, "life": 6, "delete-template": 15}

// faultRate is the share of applies that meet a fault (or a kill);
// editRate the share of steps that are edits.
const (
	faultRate = 0.4
	editRate  = 0.5
)

// pick draws a key of w with probability proportional to its weight.
func pick(r *rand.Rand, w map[string]int) string {
	keys := make([]string, 0, len(w))
	total := 0
	for k, n := range w {
		keys = append(keys, k)
		total += n
	}
	slices.Sort(keys)
	n := r.IntN(total)
	for _, k := range keys {
		if n < w[k] {
			return k
		}
		n -= w[k]
	}
	return keys[len(keys)-1]
}

// randomBlock is a block named name with random settings.
func randomBlock(r *rand.Rand, name string) block {
	kinds := []string{kindPath, kindPath, kindPath, kindContent, kindContent, kindRows, kindRows, kindRows}
	return block{
		Name: name, Count: 1 + r.IntN(2), Kind: kinds[r.IntN(len(kinds))],
		Data: r.IntN(len(datasets)), Format: r.IntN(len(formats)), Encoding: r.IntN(len(encodings)),
		Template: r.IntN(len(templates)), Dir: "a",
		Submit: r.IntN(2) == 0, Wait: r.IntN(4) != 0, Cancel: r.IntN(4) == 0,
	}
}

// randomConfig is one or two blocks; a second block imports the same data
// as the first half the time.
func randomConfig(r *rand.Rand) config {
	c := config{Blocks: []block{randomBlock(r, "r0")}}
	if r.IntN(2) == 0 {
		b := randomBlock(r, "r1")
		if r.IntN(2) == 0 {
			b = c.Blocks[0]
			b.Name = "r1"
		}
		c.Blocks = append(c.Blocks, b)
	}
	return c
}

// generate is the sequence of seed: a first apply (with the previous
// release of the provider, then an upgrade, in some), then steps more
// steps, the last one an apply, or in some a destroy after a template was
// deleted on the service.
func generate(seed int64, steps int) sequence {
	r := rand.New(rand.NewPCG(uint64(seed), 0x6578706c6f7265))
	q := sequence{Seed: seed, Init: randomConfig(r)}
	q.Remote = r.IntN(100) < rateWeights["remote"]
	g := &gen{r: r, m: newModel(q.Init)}
	g.m.remote = q.Remote
	next := 0
	add := func(s step) {
		if s.Kind == stepEdit && s.Name != "trigger" && s.Name != "file" { // a file comes back in its own chain
			g.undo = append(g.undo, step{Kind: stepEdit, Name: s.Name, Block: s.Block, Value: editValue(g.m.cfg.Blocks[s.Block], s.Name)})
		}
		q.Steps = append(q.Steps, s)
		next = simulate(g.m, s, next)
	}
	first := []step{{Kind: stepOp, Name: "apply"}}
	if r.IntN(100) < rateWeights["upgrade"] {
		g.m.old, q.Previous = true, true
		first = upgradeSteps(r)
	}
	for _, s := range first {
		add(s)
	}
	g.chain = first[0].Fault != ""
	for len(q.Steps) < steps || g.chain { // a chain due after a kill goes beyond steps
		for _, s := range g.steps() {
			add(s)
		}
	}
	if last := q.Steps[len(q.Steps)-1]; last.Kind == stepEdit || last.Name != "apply" || last.Fault != "" {
		add(step{Kind: stepOp, Name: "apply"})
	}
	if r.IntN(100) < rateWeights["delete-template"] && g.m.quiet() {
		for _, s := range g.deleteTemplateSteps() {
			add(s)
		}
	}
	return q
}

// gen is the state of a sequence being generated: its model, as
// simulated, and the edits that take back the ones made (the last one
// last): a user who changes a setting often changes it back.
type gen struct {
	r     *rand.Rand
	m     *model
	undo  []step
	chain bool // a chain of steps is due after the kill just generated (gen_chain_test.go)
	// endNext: end-job is due after the apply just generated, whose jobs
	// hang (endJobSteps).
	endNext bool
}

// upgradeSteps is the start of a sequence that upgrades the provider: a
// first apply with the previous release, killed in half of them while it
// waits (or its provider killed), then the upgrade.
func upgradeSteps(r *rand.Rand) []step {
	first := step{Kind: stepOp, Name: "apply"}
	if r.IntN(2) == 0 {
		first.Fault = []string{"kill-wait", "kill-wait", "kill-provider"}[r.IntN(3)]
	}
	return []step{first, {Kind: stepOp, Name: "upgrade"}}
}

// steps is a random step; a kill that would not fire (nothing created, or
// nothing waits) comes after edits that make the apply start jobs
// (killEdits), or goes if none does. A kill-upload lets through some of
// the uploads its apply is to make.
func (g *gen) steps() []step {
	r, m := g.r, g.m
	if g.chain {
		g.chain = false
		if c := g.chainSteps(); len(c) > 0 {
			return c
		}
	}
	if g.endNext {
		g.endNext = false
		if len(m.inProgress()) > 0 {
			return g.endJobSteps()
		}
	}
	if len(m.state) > 0 && m.lifeReady() && r.IntN(100) < rateWeights["life"] {
		if c := g.lifeSteps(); len(c) > 0 {
			return c
		}
	}
	s := g.step()
	if s.Name == "end-job" {
		return g.endJobSteps()
	}
	if !isKill(s.Fault) || !m.killable() {
		return []step{s}
	}
	for try := 0; try < 4; try++ {
		var pre []step
		if try > 0 {
			pre = killEdits(r, m, s)
		}
		c := m.clone()
		for _, p := range pre {
			c.cfg = applyEdit(c.cfg, p)
		}
		if n := plannedNews(c, s); s.Fault == "kill-upload" && n > 0 {
			s.Value = r.IntN(n)
		}
		if killFires(c, s) {
			g.chain = r.IntN(5) < 4
			return append(pre, s)
		}
	}
	s.Fault = ""
	return []step{s}
}

// killEdits is edits after which kill step s starts jobs that wait: on
// the block it replaces (or one at random), an instance at least,
// wait_for_completion on (not for kill-upload), and unless s is a
// -replace, a trigger, the data or the count changed.
func killEdits(r *rand.Rand, m *model, s step) []step {
	bi := r.IntN(len(m.cfg.Blocks))
	if s.Name == "replace" && s.Block < len(m.cfg.Blocks) {
		bi = s.Block
	}
	b := m.cfg.Blocks[bi]
	var out []step
	if b.Count == 0 {
		out = append(out, step{Kind: stepEdit, Name: "count", Block: bi, Value: 1})
	}
	if !b.Wait && s.Fault != "kill-upload" {
		out = append(out, step{Kind: stepEdit, Name: "wait", Block: bi, Value: 1})
	}
	if s.Name == "replace" || b.Count == 0 {
		return out
	}
	edits := []step{{Kind: stepEdit, Name: "trigger", Block: bi, Value: b.Trigger + 1},
		{Kind: stepEdit, Name: "bytes", Block: bi, Value: (b.Data + 1 + r.IntN(len(datasets)-1)) % len(datasets)}}
	if b.Count < 2 {
		edits = append(edits, step{Kind: stepEdit, Name: "count", Block: bi, Value: 2})
	}
	return append(out, edits[r.IntN(len(edits))])
}

// step is an edit (a third of them taking back the last edit still in
// effect) or an operation fit for the model's state.
func (g *gen) step() step {
	r, m := g.r, g.m
	if s, ok := g.followUp(); ok {
		return s
	}
	if r.Float64() < editRate {
		for len(g.undo) > 0 && r.IntN(3) == 0 {
			u := g.undo[len(g.undo)-1]
			g.undo = g.undo[:len(g.undo)-1]
			if editValue(m.cfg.Blocks[u.Block], u.Name) != u.Value {
				return u
			}
		}
		name := pick(r, editWeights)
		bi := r.IntN(len(m.cfg.Blocks))
		return editStep(r, m.cfg.Blocks[bi], name, bi)
	}
	s := step{Kind: stepOp, Name: pick(r, g.opWeights())}
	targets := sortedKeys(m.state)
	switch s.Name {
	case "replace":
		targets = sortedKeys(m.cfg.instances())
	case "adopt":
		targets = m.adoptable()
	case "end-job": // its target and what leads to it: endJobSteps
		return s
	case "end-orphan", "workspace-select":
		s.Index, s.Value = r.IntN(4), r.IntN(4)
		if s.Name == "end-orphan" && len(m.journal) == 0 {
			s = step{Kind: stepOp, Name: "apply"}
		}
	}
	if targeted[s.Name] {
		if len(targets) == 0 {
			s = step{Kind: stepOp, Name: "apply"}
		} else {
			s.Block, s.Index = parseAddr(m.cfg, targets[r.IntN(len(targets))])
		}
	}
	if (s.Name == "apply" || s.Name == "plan-apply" || s.Name == "replace") && r.Float64() < faultRate {
		s.Fault = pick(r, faultWeights)
	}
	return s
}

// opWeights is the operations' weights now: no workspaces with the http
// backend; adopt and end-orphan weigh more while the journal holds
// entries, workspace-select while there are workspaces to select.
func (g *gen) opWeights() map[string]int {
	w := maps.Clone(opWeights)
	if g.m.remote {
		w["workspace-new"], w["workspace-select"] = 0, 0
	}
	if len(g.m.journal) > 0 {
		w["adopt"], w["end-orphan"] = w["adopt"]*4, w["end-orphan"]*3
	}
	if len(g.m.workspaces()) > 1 {
		w["workspace-select"] *= 3
	}
	return w
}

// endJobSteps is end-job on an instance whose job is in progress, ended
// as the service ends it (endOf); or, if no job is in progress, what
// makes one first: a block's trigger changed (its count made 1 if 0;
// wait_for_completion turned off two times in three, as a pipeline that
// does not block has it), then an apply whose jobs hang, and end-job next
// (endNext).
func (g *gen) endJobSteps() []step {
	r, m := g.r, g.m
	if targets := m.inProgress(); len(targets) > 0 {
		a := targets[r.IntN(len(targets))]
		s := step{Kind: stepOp, Name: "end-job", Value: endOf(r, m.state[a])}
		s.Block, s.Index = parseAddr(m.cfg, a)
		return []step{s}
	}
	bi := r.IntN(len(m.cfg.Blocks))
	b := m.cfg.Blocks[bi]
	var out []step
	if b.Count == 0 {
		out = append(out, step{Kind: stepEdit, Name: "count", Block: bi, Value: 1})
	}
	if b.Wait && r.IntN(3) > 0 {
		out = append(out, step{Kind: stepEdit, Name: "wait", Block: bi, Value: 0})
	}
	g.endNext = true
	return append(out, step{Kind: stepEdit, Name: "trigger", Block: bi, Value: b.Trigger + 1}, step{Kind: stepOp, Name: "apply", Fault: "hang"})
}

// endOf is how the service ends the job of st, in progress (jobEnds): one
// submitted ends in ERROR or a user cancels it; one never submitted is
// cancelled or expires.
func endOf(r *rand.Rand, st *inst) int {
	if st.Submit {
		return r.IntN(2) // ERROR, CANCELLED
	}
	return 1 + r.IntN(2) // CANCELLED, EXPIRED
}

// inProgress is the instances in the state whose job is in progress: it
// hangs since the last apply.
func (m *model) inProgress() []string {
	var out []string
	for _, a := range sortedKeys(m.state) {
		if m.state[a].Hung {
			out = append(out, a)
		}
	}
	return out
}

// adoptable is the instances the configuration declares whose definition
// an entry of the journal has, its job not purged (one that ended without
// importing may be adopted: the apply after it replaces it).
func (m *model) adoptable() []string {
	var out []string
	for _, a := range sortedKeys(m.cfg.instances()) {
		d := defOf(m.cfg.Blocks[m.cfg.instances()[a]])
		if slices.ContainsFunc(m.journal, func(e *entry) bool { return e.Def == d && e.Ended != purged }) {
			out = append(out, a)
		}
	}
	return out
}

// parseAddr is the block index and instance index of address a in c.
func parseAddr(c config, a string) (int, int) {
	for bi, b := range c.Blocks {
		for i := 0; i < max(b.Count, 3); i++ {
			if addr(b, i) == a {
				return bi, i
			}
		}
	}
	return 0, 0
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
