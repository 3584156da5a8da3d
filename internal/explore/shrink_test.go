package explore

import (
	"regexp"
	"slices"
	"strings"
)

// shrink simplifies q while fails still reports a mismatch: it drops
// steps, one at a time from the last to the first, then takes the faults
// (and kills) off the operations, then tries a local state for a remote
// one and the provider under test for the previous release, until a pass changes nothing or budget runs of fails
// are spent. It returns the shrunk sequence (cut after the step that then
// fails, as fails reports it) and the runs spent.
func shrink(q sequence, fails func(sequence) (int, bool), budget int) (sequence, int) {
	runs := 0
	try := func(t sequence) bool {
		runs++
		at, ok := fails(t)
		if ok {
			t.Steps = t.Steps[:at+1]
			q = t
		}
		return ok
	}
	for changed := true; changed && runs < budget; {
		changed = false
		for i := len(q.Steps) - 1; i >= 0 && runs < budget && len(q.Steps) > 1; i-- {
			t := q
			t.Steps = slices.Delete(slices.Clone(q.Steps), i, i+1)
			if try(t) {
				changed = true
				i = min(i, len(q.Steps))
			}
		}
		for i := 0; i < len(q.Steps) && runs < budget; i++ {
			if q.Steps[i].Fault == "" {
				continue
			}
			t := q
			t.Steps = slices.Clone(q.Steps)
			t.Steps[i].Fault = ""
			changed = try(t) || changed
		}
		if q.Remote && runs < budget { // a local state, if it fails all the same
			t := q
			t.Steps, t.Remote = slices.Clone(q.Steps), false
			changed = try(t) || changed
		}
		if q.Previous && runs < budget { // the provider under test throughout, if it fails all the same
			t := q
			t.Steps = slices.DeleteFunc(slices.Clone(q.Steps), func(s step) bool { return s.Name == "upgrade" })
			t.Previous = false
			changed = try(t) || changed
		}
	}
	return q, runs
}

// digits matches the numbers of a mismatch (job ids, counts, indexes).
var digits = regexp.MustCompile(`[0-9]+`)

// kinds is the kinds of mismatch problems holds: each one's first six
// words, numbers left out. Shrinking keeps a candidate only when it fails
// with every kind the original failed with, so that a mismatch is not
// shrunk into another one (a swap of jobs into a job not started). A
// command's failure and a taint are left out: they follow from a fault,
// which shrinking may take off.
func kinds(problems []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range problems {
		if strings.HasPrefix(p, "the command ") || strings.Contains(p, " tainted: ") {
			continue
		}
		w := strings.Fields(digits.ReplaceAllString(p, "#"))
		out[strings.Join(w[:min(6, len(w))], " ")] = true
	}
	return out
}

// hasKinds reports whether problems has every kind of want.
func hasKinds(problems []string, want map[string]bool) bool {
	got := kinds(problems)
	for k := range want {
		if !got[k] {
			return false
		}
	}
	return true
}
