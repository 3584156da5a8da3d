package explore

import "math/rand/v2"

// The edits of the grammar: what a user changes in the configuration. Each
// is a pure function of the configuration and the step's value, so that a
// shrunk sequence replays what is left of it.

// editNames are the edits, in the order the figures list them.
var editNames = []string{
	"bytes", "format", "encoding", "template", "kind", "content", "move",
	"submit", "wait", "trigger", "count", "cancel", "keep", "file",
}

// editChoices is how many values each edit picks from (the new value is
// the old one plus 1..n-1, modulo n, so it always differs; a trigger only
// counts up).
var editChoices = map[string]int{
	"bytes": len(datasets), "format": len(formats), "encoding": len(encodings),
	"template": len(templates), "kind": 2, "content": 2, "move": 2,
	"submit": 2, "wait": 2, "trigger": 2, "count": 3, "cancel": 2, "keep": 2, "file": len(fileStates),
}

// applyEdit returns c with edit s made. An edit of a block the
// configuration lacks changes nothing.
func applyEdit(c config, s step) config {
	if s.Block >= len(c.Blocks) {
		return c
	}
	c = c.clone()
	b := &c.Blocks[s.Block]
	v := s.Value
	switch s.Name {
	case "bytes":
		b.Data = v
	case "format":
		b.Format = v
	case "encoding":
		b.Encoding = v
	case "template":
		b.Template = v
	case "kind": // a file (path) <-> rows, the same data
		b.Kind = []string{kindPath, kindRows}[v]
	case "content": // path <-> inline content, the same bytes
		b.Kind = []string{kindPath, kindContent}[v]
	case "move": // the same file in another directory
		b.Dir = []string{"a", "b"}[v]
	case "submit":
		b.Submit = v == 1
	case "wait":
		b.Wait = v == 1
	case "trigger":
		b.Trigger = v
	case "count":
		b.Count = v
	case "cancel":
		b.Cancel = v == 1
	case "keep":
		b.KeepFailed = v == 1
	case "file": // the data file deleted, made unreadable, or put back (not the configuration)
		b.File = v
	}
	return c
}

// editValue is the value edit name of block b has now, so that a
// generated edit picks another one.
func editValue(b block, name string) int {
	switch name {
	case "bytes":
		return b.Data
	case "format":
		return b.Format
	case "encoding":
		return b.Encoding
	case "template":
		return b.Template
	case "kind":
		return btoi(b.Kind == kindRows)
	case "content":
		return btoi(b.Kind == kindContent)
	case "move":
		return btoi(b.Dir == "b")
	case "submit":
		return btoi(b.Submit)
	case "wait":
		return btoi(b.Wait)
	case "trigger":
		return b.Trigger
	case "count":
		return b.Count
	case "cancel":
		return btoi(b.Cancel)
	case "keep":
		return btoi(b.KeepFailed)
	case "file":
		return b.File
	}
	return 0
}

func btoi(v bool) int {
	if v {
		return 1
	}
	return 0
}

// editStep is edit name of block b (index bi) to another value.
func editStep(r *rand.Rand, b block, name string, bi int) step {
	n := editChoices[name]
	v := (editValue(b, name) + 1 + r.IntN(max(n-1, 1))) % n
	if name == "trigger" {
		v = b.Trigger + 1
	}
	return step{Kind: stepEdit, Name: name, Block: bi, Value: v}
}
