package explore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

// stateInst is one etl_import instance as the state holds it.
type stateInst struct {
	ID      string
	Tainted bool
}

// observed is what one operation left: the command's outcome, the state,
// and the emulator's record of jobs.
type observed struct {
	Failed bool
	State  map[string]stateInst
	Jobs   []emulator.Job // every job, in creation order
	Before int            // how many of Jobs existed before the operation
}

// check compares o with e. It returns the jobs it found for the instances
// that must hold a new one, and the mismatches, each a sentence.
func check(e expect, o observed) (map[string]string, []string) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	newJobs := o.Jobs[min(o.Before, len(o.Jobs)):]
	if len(newJobs) != len(e.New) {
		add("%d jobs started, %d expected", len(newJobs), len(e.New))
	}
	ids, claimed := checkNew(e, o, newJobs, add)
	fail := e.Fail
	for _, g := range e.Swap {
		fail = checkSwap(e, o, g, newJobs, ids, claimed, add) || fail
	}
	if fail != o.Failed {
		add("the command %s, want it to %s", map[bool]string{true: "failed", false: "succeeded"}[o.Failed],
			map[bool]string{true: "fail", false: "succeed"}[fail])
	}
	swapped := e.swapped()
	for _, a := range sortedKeys(e.Keep) {
		if swapped[a] {
			continue
		}
		if got, ok := o.State[a]; !ok {
			add("%s is not in the state, want it to hold job %s", a, e.Keep[a])
		} else if got.ID != e.Keep[a] {
			add("%s holds job %s, want job %s (no new job)", a, got.ID, e.Keep[a])
		}
	}
	for _, a := range sortedKeys(o.State) {
		_, n := e.New[a]
		_, k := e.Keep[a]
		switch {
		case !n && !k:
			add("%s is in the state (job %s), want it gone", a, o.State[a].ID)
		case swapped[a]:
		case o.State[a].Tainted != e.Tainted[a]:
			add("%s tainted: %t, want %t", a, o.State[a].Tainted, e.Tainted[a])
		}
	}
	for _, j := range newJobs {
		if !claimed[j.ID] {
			add("job %s started (%s), which no instance holds as asked for", j.ID, describe(j))
		}
	}
	for _, j := range o.Jobs {
		if (j.Status == emulator.StatusCancelled) != e.Cancelled[j.ID] {
			add("job %s is %s, want it cancelled: %t", j.ID, j.Status, e.Cancelled[j.ID])
		}
	}
	return ids, problems
}

// swapped is the members of e's swap groups.
func (e expect) swapped() map[string]bool {
	out := map[string]bool{}
	for _, g := range e.Swap {
		for _, a := range g {
			out[a] = true
		}
	}
	return out
}

// checkSwap checks swap group g (see expect.Swap): its members hold
// distinct jobs, every job it resumes (Keep) and otherwise new jobs of
// their own with the planned data, untainted if resumed, else as HangNew
// says. It records the jobs found in ids and claimed, and returns whether
// the command must fail (a new job whose wait timed out).
func checkSwap(e expect, o observed, g []string, newJobs []emulator.Job, ids map[string]string, claimed map[string]bool, add func(string, ...any)) bool {
	resumed, fail := map[string]bool{}, false
	var d def
	for _, a := range g {
		if id, ok := e.Keep[a]; ok {
			resumed[id] = true
		} else {
			d = e.New[a]
		}
	}
	held := map[string]string{}
	for _, a := range g {
		got, ok := o.State[a]
		if !ok {
			add("%s is not in the state, want it to hold a job of %v (resumed %v, or new)", a, g, sortedKeys(resumed))
			continue
		}
		if other, dup := held[got.ID]; dup {
			add("%s holds job %s, as %s does; want distinct jobs in %v", a, got.ID, other, g)
			continue
		}
		held[got.ID] = a
		tainted := false
		if !resumed[got.ID] {
			i := slices.IndexFunc(newJobs, func(j emulator.Job) bool { return j.ID == got.ID })
			if i < 0 || claimed[got.ID] {
				add("%s holds job %s, neither a resumed job %v nor a new job of its own", a, got.ID, sortedKeys(resumed))
				continue
			}
			for _, p := range differs(d, newJobs[i]) {
				add("%s: job %s %s", a, got.ID, p)
			}
			claimed[got.ID], tainted = true, e.HangNew[a]
			fail = fail || tainted
		}
		ids[a] = got.ID
		if got.Tainted != tainted {
			add("%s tainted: %t, want %t", a, got.Tainted, tainted)
		}
	}
	for _, id := range sortedKeys(resumed) {
		if _, ok := held[id]; !ok {
			add("job %s, resumed, is held by none of %v", id, g)
		}
	}
	return fail
}

// checkNew checks that each instance that must hold a new job holds one
// of newJobs, with the planned data; it returns the ids and the jobs
// claimed.
func checkNew(e expect, o observed, newJobs []emulator.Job, add func(string, ...any)) (map[string]string, map[string]bool) {
	ids, claimed := map[string]string{}, map[string]bool{}
	swapped := e.swapped()
	for _, a := range sortedKeys(e.New) {
		if swapped[a] {
			continue // checkSwap
		}
		d := e.New[a]
		got, ok := o.State[a]
		if !ok {
			add("%s is not in the state, want a new job: %s", a, d)
			continue
		}
		i := slices.IndexFunc(newJobs, func(j emulator.Job) bool { return j.ID == got.ID })
		if i < 0 || claimed[got.ID] {
			add("%s holds job %s, not a new job of its own; want a new job: %s", a, got.ID, d)
			continue
		}
		for _, p := range differs(d, newJobs[i]) {
			add("%s: job %s %s", a, got.ID, p)
		}
		ids[a], claimed[got.ID] = got.ID, true
	}
	return ids, claimed
}

// differs lists how job j differs from d, as the emulator recorded it.
func differs(d def, j emulator.Job) []string {
	var out []string
	if j.TemplateID != d.Template {
		out = append(out, fmt.Sprintf("is of template %s, want %s", j.TemplateID, d.Template))
	}
	u := j.Upload
	if u == nil {
		return append(out, "received no data")
	}
	if d.Rows {
		if u.Kind != "data" {
			out = append(out, fmt.Sprintf("received a %s, want rows", u.Kind))
		}
		if want := datasets[d.Data]; !slices.Equal(u.Header, want[0]) || !slices.EqualFunc(u.Rows, want[1:], slices.Equal) {
			out = append(out, fmt.Sprintf("received rows %v %v, want %v", u.Header, u.Rows, want))
		}
		return out
	}
	if u.Kind != "file" {
		out = append(out, fmt.Sprintf("received %s, want a file", u.Kind))
	}
	if u.Format != d.Format || u.Encoding != d.Encoding {
		out = append(out, fmt.Sprintf("received format %s, encoding %s; want %s, %s", u.Format, u.Encoding, d.Format, d.Encoding))
	}
	sum := sha256.Sum256(fileBytes(d.Data, slices.Index(formats, d.Format), slices.Index(encodings, d.Encoding)))
	if want := hex.EncodeToString(sum[:]); u.SHA256 != want {
		out = append(out, fmt.Sprintf("received bytes with SHA-256 %.12s, want %.12s (data set %d)", u.SHA256, want, d.Data))
	}
	return out
}

// describe is what job j received, as the emulator recorded it.
func describe(j emulator.Job) string {
	u := j.Upload
	switch {
	case u == nil:
		return fmt.Sprintf("template %s, no data, %s", j.TemplateID, j.Status)
	case u.Kind == "data":
		return fmt.Sprintf("template %s, %d rows, %s", j.TemplateID, u.RowCount, j.Status)
	}
	return fmt.Sprintf("template %s, %s %s file of %d bytes, %s", j.TemplateID, u.Format, u.Encoding, u.Bytes, j.Status)
}
