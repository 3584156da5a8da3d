package explore

// scenarios are fixed sequences run before the random ones: the promises
// that matter most, each in its smallest form, on a block of two
// instances with the same data (a CSV file in UTF-8, waited for), or for a
// killed apply on a block of rows (data set 0, A; data set 1, B). Where
// a tainted instance and another of the same data are (re)created in one
// apply, they may exchange their jobs: the model checks the count of new
// jobs, their data, that the resumed job stays held, and that the jobs
// are distinct, not which instance holds which.
func scenarios() []sequence {
	apply := step{Kind: stepOp, Name: "apply"}
	edit := func(name string, v int) step { return step{Kind: stepEdit, Name: name, Value: v} }
	op := func(name string, index int, fault string) step {
		return step{Kind: stepOp, Name: name, Index: index, Fault: fault}
	}
	b := block{Name: "r0", Count: 2, Kind: kindPath, Dir: "a", Submit: true, Wait: true}
	one, oneColumn, cancel, keep := b, b, b, b
	one.Count, oneColumn.Data = 1, 3
	cancel.Count, cancel.Wait, cancel.Cancel = 1, false, true
	keep.Name, keep.Count, keep.Wait = "r1", 1, false
	rowsA := block{Name: "r0", Count: 1, Kind: kindRows, Submit: true, Wait: true}
	rowsB := rowsA
	rowsB.Name, rowsB.Data = "r1", 1
	noWait := rowsA
	noWait.Wait = false
	killWait := op("apply", 0, "kill-wait")
	list := []struct {
		name   string
		b      block
		steps  []step
		more   []block
		remote bool
	}{
		{"-replace", b, []step{apply, op("replace", 0, "")}, nil, false},
		{"replace_triggered_by", b, []step{apply, edit("trigger", 1), apply}, nil, false},
		{"format change", b, []step{apply, edit("format", 1), apply}, nil, false},
		{"format change, the same bytes", oneColumn, []step{apply, edit("format", 2), apply}, nil, false},
		{"encoding change, the same bytes", b, []step{apply, edit("encoding", 2), apply}, nil, false},
		{"timed-out wait, resumed", b, []step{op("apply", 0, "hang"), apply}, nil, false},
		{"timed-out wait, job ended in ERROR", b, []step{op("apply", 0, "hang-error"), apply}, nil, false},
		{"taint, then a format change", b, []step{apply, op("taint", 0, ""), edit("format", 2), apply}, nil, false},
		{"taint, then a format change, the same bytes", oneColumn, []step{apply, op("taint", 0, ""), edit("format", 1), apply}, nil, false},
		{"one tainted, the other replaced: one new job, either may hold it", b, []step{apply, op("taint", 0, ""), op("replace", 1, "")}, nil, false},
		{"tainted, then an instance added: one new job, either may hold it", one, []step{apply, op("taint", 0, ""), edit("count", 2), apply}, nil, false},
		{"destroy of unfinished jobs", cancel, []step{op("apply", 0, "hang"), op("destroy", 0, "")}, []block{keep}, false},
		{"both tainted: resumed, maybe exchanged", b, []step{apply, op("taint", 0, ""), op("taint", 1, ""), apply}, nil, false},
		{"-replace of a tainted instance: the taint alone", b, []step{apply, op("taint", 0, ""), op("replace", 0, "")}, nil, false},
		{"imported, tainted before an apply adopted it: replaced", b, []step{apply, op("import", 0, ""), op("taint", 0, ""), apply}, nil, false},
		// A killed apply's jobs (the guide, "The journal of started jobs").
		{"killed while it waits, rows edited, then edited back: a new job (3 in all)", rowsA,
			[]step{killWait, edit("bytes", 1), apply, edit("bytes", 0), apply}, nil, false},
		{"a replacement killed while it waits, then an apply: resumed (local state)", rowsA,
			[]step{apply, edit("bytes", 1), killWait, apply}, nil, false},
		{"a replacement killed while it waits, then an apply: resumed (remote state)", rowsA,
			[]step{apply, edit("bytes", 1), killWait, apply}, nil, true},
		{"one create returned, one waits, killed (remote state): both resumed", noWait,
			[]step{killWait, apply}, []block{rowsB}, true},
	}
	out := make([]sequence, len(list))
	for i, s := range list {
		out[i] = sequence{Name: s.name, Seed: int64(-1 - i), Init: config{Blocks: append([]block{s.b}, s.more...)}, Steps: s.steps, Remote: s.remote}
	}
	return out
}
