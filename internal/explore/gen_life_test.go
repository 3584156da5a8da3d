package explore

import "maps"

// The steps users take at the end of a resource's life, in chains the
// generator makes now and then (lifeWeights; rateWeights["life"], in
// percent of steps): a block's file deleted or made unreadable, then an
// operation (an apply that needs nothing of it, one that needs it, a
// destroy), then the file put back; a job adopted by id whose template is
// then edited to the other model's, then a destroy or the edit taken back.
// And at the end of some sequences (rateWeights["delete-template"]), once
// nothing is left to do, a template deleted on the service, then a
// destroy. Kills wait until such a chain is over (killable).

var lifeWeights = map[string]int{"file": 5, "adopted-template": 2}

// fileMiddles are what a user does while a file is gone, with weights.
var fileMiddles = map[string]int{"apply": 4, "plan-apply": 2, "destroy": 3, "replace": 2, "taint": 2, "import": 2, "edit": 6}

// lifeEdits are the edits made while a file is gone, with weights: those
// that need the data (format, encoding, template, trigger, a path
// elsewhere), one that the plan cannot see (bytes), and those that send
// data the configuration holds (rows, inline content).
var lifeEdits = map[string]int{"format": 2, "encoding": 1, "template": 2, "move": 2, "bytes": 2, "trigger": 2, "kind": 1, "content": 1}

// lifeSteps is a chain of the end of a resource's life, nil if none fits
// the model's state.
func (g *gen) lifeSteps() []step {
	w := maps.Clone(lifeWeights)
	files, adopted := g.m.fileBlocks(), g.m.adoptedTargets()
	if len(files) == 0 {
		w["file"] = 0
	}
	if len(adopted) == 0 {
		w["adopted-template"] = 0
	}
	if w["file"]+w["adopted-template"] == 0 {
		return nil
	}
	if pick(g.r, w) == "file" {
		return g.fileChain(files[g.r.IntN(len(files))])
	}
	bi, i := parseAddr(g.m.cfg, adopted[g.r.IntN(len(adopted))])
	t := g.m.cfg.Blocks[bi].Template
	edit := func(v int) step { return step{Kind: stepEdit, Name: "template", Block: bi, Value: v} }
	out := []step{{Kind: stepOp, Name: "import", Block: bi, Index: i}, edit((t + 1) % len(templates)), opStep("apply")}
	if g.r.IntN(2) == 0 {
		return append(out, opStep("destroy"))
	}
	return append(out, edit(t), opStep("apply"))
}

// fileChain is block bi's file deleted or made unreadable, one or two
// things a user does then, maybe a destroy, and the file put back, then
// an apply.
func (g *gen) fileChain(bi int) []step {
	r := g.r
	out := []step{{Kind: stepEdit, Name: "file", Block: bi, Value: fileGone + r.IntN(2)}}
	for k := 1 + r.IntN(2); k > 0; k-- {
		out = append(out, g.fileMiddle(bi)...)
	}
	if r.IntN(4) == 0 {
		out = append(out, opStep("destroy"))
	}
	return append(out, step{Kind: stepEdit, Name: "file", Block: bi, Value: fileHere}, opStep("apply"))
}

// fileMiddle is one thing a user does while block bi's file is gone: an
// apply that needs nothing of it, a destroy (then, half the time, an apply
// of new objects, whose plan fails), a -replace, a taint or an import by
// id then an apply, an edit then an apply.
func (g *gen) fileMiddle(bi int) []step {
	r, b := g.r, g.m.cfg.Blocks[bi]
	i := r.IntN(max(b.Count, 1))
	switch middle := pick(r, fileMiddles); middle {
	case "apply", "plan-apply":
		return []step{opStep(middle)}
	case "destroy":
		if r.IntN(2) == 0 {
			return []step{opStep("destroy"), opStep("apply")}
		}
		return []step{opStep("destroy")}
	case "replace":
		return []step{{Kind: stepOp, Name: "replace", Block: bi, Index: i}}
	case "taint", "import":
		return []step{{Kind: stepOp, Name: middle, Block: bi, Index: i}, opStep("apply")}
	}
	return []step{editStep(r, b, pick(r, lifeEdits), bi), opStep("apply")}
}

func opStep(name string) step { return step{Kind: stepOp, Name: name} }

// fileBlocks is the blocks whose file a user may delete: a path block,
// its file there, every instance of it in the state (one yet to create
// would name the file of one in state: planFails).
func (m *model) fileBlocks() []int {
	var out []int
	for bi, b := range m.cfg.Blocks {
		all := b.Kind == kindPath && b.File == fileHere && b.Count > 0
		for i := 0; i < b.Count; i++ {
			all = all && m.state[addr(b, i)] != nil
		}
		if all {
			out = append(out, bi)
		}
	}
	return out
}

// adoptedTargets is the instances a user may import by id and whose
// template they may then edit: in the state, its job of the configured
// template, neither tainted nor purged, its data readable.
func (m *model) adoptedTargets() []string {
	var out []string
	for _, a := range sortedKeys(m.cfg.instances()) {
		b := m.cfg.Blocks[m.cfg.instances()[a]]
		st := m.state[a]
		if st != nil && !st.Tainted && !st.Purged && !st.Adopt && readable(b) && st.Def.Template == templates[b.Template] {
			out = append(out, a)
		}
	}
	return out
}

// deleteTemplateSteps ends a sequence: a template the configuration uses
// deleted on the service, maybe an operation that needs nothing of it,
// then a destroy.
func (g *gen) deleteTemplateSteps() []step {
	r, c := g.r, g.m.cfg
	out := []step{{Kind: stepOp, Name: "delete-template", Value: c.Blocks[r.IntN(len(c.Blocks))].Template}}
	if n := r.IntN(4); n < 3 {
		out = append(out, opStep([]string{"apply", "plan-apply", "refresh"}[n]))
	}
	return append(out, opStep("destroy"))
}

// quiet says whether nothing is left to do: no tainted, imported or hung
// instance, no journal entry, every file readable and template there,
// and an apply now would start no job and succeed.
func (m *model) quiet() bool {
	if len(m.journal) > 0 || len(m.stray) > 0 || !m.lifeReady() {
		return false
	}
	for _, st := range m.state {
		if st.Tainted || st.Adopt || st.Hung {
			return false
		}
	}
	c := m.clone()
	c.releases()
	e := c.op(opStep("apply"))
	lo, hi := e.jobs()
	return !e.Fail && lo == 0 && hi == 0
}
