package explore

// scenarios are fixed sequences run before the random ones: the promises
// that matter most, each in its smallest form, on a block of two
// instances with the same data (a CSV file in UTF-8, waited for).
func scenarios() []sequence {
	apply := step{Kind: stepOp, Name: "apply"}
	edit := func(name string, v int) step { return step{Kind: stepEdit, Name: name, Value: v} }
	op := func(name string, index int, fault string) step {
		return step{Kind: stepOp, Name: name, Index: index, Fault: fault}
	}
	b := block{Name: "r0", Count: 2, Kind: kindPath, Dir: "a", Submit: true, Wait: true}
	one, oneColumn := b, b
	one.Count, oneColumn.Data = 1, 3
	list := []struct {
		name  string
		b     block
		steps []step
	}{
		{"-replace", b, []step{apply, op("replace", 0, "")}},
		{"replace_triggered_by", b, []step{apply, edit("trigger", 1), apply}},
		{"format change", b, []step{apply, edit("format", 1), apply}},
		{"format change, the same bytes", oneColumn, []step{apply, edit("format", 2), apply}},
		{"encoding change, the same bytes", b, []step{apply, edit("encoding", 2), apply}},
		{"timed-out wait, resumed", b, []step{op("apply", 0, "hang"), apply}},
		{"timed-out wait, job ended in ERROR", b, []step{op("apply", 0, "hang-error"), apply}},
		{"taint, then a format change", b, []step{apply, op("taint", 0, ""), edit("format", 2), apply}},
		{"taint, then a format change, the same bytes", oneColumn, []step{apply, op("taint", 0, ""), edit("format", 1), apply}},
		{"one tainted, the other replaced", b, []step{apply, op("taint", 0, ""), op("replace", 1, "")}},
		{"tainted, then an instance added", one, []step{apply, op("taint", 0, ""), edit("count", 2), apply}},
	}
	out := make([]sequence, len(list))
	for i, s := range list {
		out[i] = sequence{Name: s.name, Seed: int64(-1 - i), Init: config{Blocks: []block{s.b}}, Steps: s.steps}
	}
	return out
}
