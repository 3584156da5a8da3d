package explore

import (
	"fmt"
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
}

var editWeights = map[string]int{
	"format": 12, "encoding": 10, "bytes": 10, "trigger": 10, "kind": 6, "content": 6,
	"move": 6, "template": 5, "submit": 5, "wait": 6, "count": 6, "cancel": 4,
}

var faultWeights = map[string]int{"hang": 45, "hang-error": 25, "429-start": 10, "503-get": 10, "503-submit": 10}

// faultRate is the share of applies that meet a fault; editRate the share
// of steps that are edits.
const (
	faultRate = 0.3
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

// generate is the sequence of seed: a first apply, then steps more steps,
// the last one an apply.
func generate(seed int64, steps int) sequence {
	r := rand.New(rand.NewPCG(uint64(seed), 0x6578706c6f7265))
	q := sequence{Seed: seed, Init: randomConfig(r)}
	m := newModel(q.Init)
	next := 0
	add := func(s step) {
		q.Steps = append(q.Steps, s)
		next = simulate(m, s, next)
	}
	add(step{Kind: stepOp, Name: "apply"})
	for len(q.Steps) < steps {
		add(randomStep(r, m))
	}
	if last := q.Steps[len(q.Steps)-1]; last.Kind == stepEdit || last.Name != "apply" {
		add(step{Kind: stepOp, Name: "apply"})
	}
	return q
}

// simulate runs s in the model as if the check passed, new jobs getting
// made-up ids from next on; it returns the next id.
func simulate(m *model, s step, next int) int {
	if s.Kind == stepEdit {
		m.cfg = applyEdit(m.cfg, s)
		return next
	}
	if s.Name != "destroy" {
		m.releases()
	}
	e := m.op(s)
	ids := map[string]string{}
	for _, a := range sortedKeys(e.New) {
		ids[a] = fmt.Sprintf("sim-%d", next)
		next++
	}
	m.learn(ids)
	return next
}

// randomStep is an edit or an operation fit for the model's state.
func randomStep(r *rand.Rand, m *model) step {
	if r.Float64() < editRate {
		name := pick(r, editWeights)
		bi := r.IntN(len(m.cfg.Blocks))
		n := editChoices[name]
		v := (editValue(m.cfg.Blocks[bi], name) + 1 + r.IntN(max(n-1, 1))) % n
		if name == "trigger" {
			v = m.cfg.Blocks[bi].Trigger + 1
		}
		return step{Kind: stepEdit, Name: name, Block: bi, Value: v}
	}
	s := step{Kind: stepOp, Name: pick(r, opWeights)}
	targets := sortedKeys(m.state)
	if s.Name == "replace" {
		targets = sortedKeys(m.cfg.instances())
	}
	switch s.Name {
	case "replace", "taint", "untaint", "import", "purge":
		if len(targets) == 0 {
			s.Name = "apply"
			break
		}
		s.Block, s.Index = parseAddr(m.cfg, targets[r.IntN(len(targets))])
	}
	if (s.Name == "apply" || s.Name == "plan-apply" || s.Name == "replace") && r.Float64() < faultRate {
		s.Fault = pick(r, faultWeights)
	}
	return s
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
