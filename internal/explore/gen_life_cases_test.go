package explore

import (
	"slices"
	"testing"
)

// The generator's chains of the end of a resource's life: a file is
// deleted only when every instance of its block is in the state, each
// file chain puts the file back before it ends, no kill comes while a
// file or a template is gone, and a sequence that deletes a template ends
// with a destroy; every other sequence ends with an apply.
func TestGenerate_lifeChains(t *testing.T) {
	files, adopted, deleted := 0, 0, 0
	for seed := int64(0); seed < 600; seed++ {
		q := generate(seed, 8)
		c, gone, m, next := q.Init.clone(), false, newModel(q.Init), 0
		m.remote, m.old = q.Remote, q.Previous
		for n, s := range q.Steps {
			if s.Name == "file" && s.Value != fileHere && !slices.Contains(m.fileBlocks(), s.Block) {
				t.Errorf("seed %d: %s at step %d, an instance of its block not in the state", seed, s, n+1)
			}
			next = simulate(m, s, next)
			if s.Kind == stepEdit {
				c = applyEdit(c, s)
			}
			gone = gone || s.Name == "delete-template"
			if isKill(s.Fault) && (gone || slices.ContainsFunc(c.Blocks, func(b block) bool { return !readable(b) })) {
				t.Errorf("seed %d: %s at step %d while a file or a template is gone", seed, s, n+1)
			}
			files += btoi(s.Name == "file" && s.Value != fileHere)
			adopted += btoi(s.Name == "import" && n+1 < len(q.Steps) && q.Steps[n+1].Name == "template")
		}
		last := q.Steps[len(q.Steps)-1]
		switch {
		case slices.ContainsFunc(c.Blocks, func(b block) bool { return b.File != fileHere && b.Kind == kindPath }):
			t.Errorf("seed %d: a file is still gone at the end:\n%s", seed, listSteps(q.Steps))
		case gone && last.Name != "destroy", !gone && last.Name != "apply":
			t.Errorf("seed %d: ends with %s (a template deleted: %t)", seed, last, gone)
		}
		deleted += btoi(gone)
	}
	if files < 20 || adopted < 10 || deleted < 20 {
		t.Errorf("600 sequences: %d files deleted or made unreadable, %d adopted jobs' templates edited, %d templates deleted; want 20, 10, 20 at least", files, adopted, deleted)
	}
}

// A template is deleted only once nothing is left to do: quiet.
func TestModel_quiet(t *testing.T) {
	m, _ := modelAfter(t, opApply)
	if !m.quiet() {
		t.Error("after an apply: not quiet")
	}
	for _, steps := range [][]step{{opApply, opTaint}, {opApply, opImport}, {opApply, {Kind: stepEdit, Name: "format", Value: 1}}, {opApply, fileGoneEdit}} {
		if m, _ := modelAfter(t, steps...); m.quiet() {
			t.Errorf("after %s: quiet", steps[1])
		}
	}
}
