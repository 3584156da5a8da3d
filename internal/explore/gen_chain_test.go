package explore

// After a kill, what users do across the life of the journal's entries,
// each in a chain of steps that the generator makes after most kills
// (the steps): the data edited, applied, then edited back; the
// resource removed (count 0), applied, then added back; the same after a
// destroy; a job adopted by id; another workspace, applied, then the first
// one again; the same configuration in another directory; a job that
// ends. Between chains, in half the steps while the journal holds
// entries, one such step alone (followUp).

// chainSteps is a chain of steps about the journal's first entry ("" if
// the journal is empty).
func (g *gen) chainSteps() []step {
	r, m := g.r, g.m
	if len(m.journal) == 0 {
		return nil
	}
	bi := r.IntN(len(m.cfg.Blocks))
	for i, b := range m.cfg.Blocks {
		if defOf(b) == m.journal[0].Def {
			bi = i
			break
		}
	}
	b := m.cfg.Blocks[bi]
	apply := step{Kind: stepOp, Name: "apply"}
	edit := func(name string, v int) step { return step{Kind: stepEdit, Name: name, Block: bi, Value: v} }
	other := edit("bytes", (b.Data+1+r.IntN(len(datasets)-1))%len(datasets))
	w := map[string]int{"edit-back": 4, "remove-back": 2, "destroy-back": 1, "adopt": 2, "other-dir": 1, "end": 1, "workspace": 1}
	if m.remote {
		w["workspace"] = 0
	}
	if len(m.adoptable()) == 0 {
		w["adopt"] = 0
	}
	switch pick(r, w) {
	case "edit-back":
		return []step{other, apply, edit("bytes", b.Data), apply}
	case "remove-back":
		return []step{edit("count", 0), apply, edit("count", max(b.Count, 1)), apply}
	case "destroy-back":
		return []step{other, apply, {Kind: stepOp, Name: "destroy"}, edit("bytes", b.Data), apply}
	case "adopt":
		s := step{Kind: stepOp, Name: "adopt"}
		targets := m.adoptable()
		s.Block, s.Index = parseAddr(m.cfg, targets[r.IntN(len(targets))])
		return []step{s, apply}
	case "other-dir":
		return []step{{Kind: stepOp, Name: "other-dir"}, apply}
	case "workspace":
		return []step{{Kind: stepOp, Name: "workspace-new"}, apply, {Kind: stepOp, Name: "workspace-select"}, apply}
	}
	return []step{{Kind: stepOp, Name: "end-orphan", Value: r.IntN(len(orphanEnds))}, apply}
}

// followUp is, in half the steps while the journal holds a killed
// apply's jobs, what a user often does next: take back the last edit,
// change the data a killed job imports, adopt a job the journal holds,
// or apply; or what the service does: end such a job.
func (g *gen) followUp() (step, bool) {
	r, m := g.r, g.m
	if len(m.journal) == 0 || r.IntN(2) == 0 {
		return step{}, false
	}
	w := map[string]int{"bytes": 3, "apply": 2, "end-orphan": 1}
	if n := len(g.undo); n > 0 && editValue(m.cfg.Blocks[g.undo[n-1].Block], g.undo[n-1].Name) != g.undo[n-1].Value {
		w["undo"] = 3
	}
	if len(m.adoptable()) > 0 {
		w["adopt"] = 2
	}
	switch pick(r, w) {
	case "undo":
		u := g.undo[len(g.undo)-1]
		g.undo = g.undo[:len(g.undo)-1]
		return u, true
	case "bytes":
		bi := r.IntN(len(m.cfg.Blocks))
		return step{Kind: stepEdit, Name: "bytes", Block: bi, Value: (m.cfg.Blocks[bi].Data + 1 + r.IntN(len(datasets)-1)) % len(datasets)}, true
	case "adopt":
		targets := m.adoptable()
		s := step{Kind: stepOp, Name: "adopt"}
		s.Block, s.Index = parseAddr(m.cfg, targets[r.IntN(len(targets))])
		return s, true
	case "end-orphan":
		return step{Kind: stepOp, Name: "end-orphan", Index: r.IntN(4), Value: r.IntN(len(orphanEnds))}, true
	}
	return step{Kind: stepOp, Name: "apply"}, true
}
