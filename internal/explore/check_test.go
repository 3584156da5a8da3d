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
	Failed   bool
	State    map[string]stateInst
	Triggers map[string]int // terraform_data inputs in the state, by block
	Jobs     []emulator.Job // every job, in creation order
	Before   int            // how many of Jobs existed before the operation
}

// check compares o with e. It returns the jobs it found for the instances
// that must hold a new one (or a swap group's), and the mismatches, each a
// sentence.
func check(e expect, o observed) (map[string]string, []string) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	newJobs := o.Jobs[min(o.Before, len(o.Jobs)):]
	ids, claimed := checkNew(e, o, newJobs, add)
	fail, want := e.Fail, len(e.New)
	for _, g := range e.Swap {
		f, n := checkSwap(e, o, g, newJobs, ids, claimed, add)
		fail, want = fail || f, want+n
	}
	if len(newJobs) != want {
		add("%d jobs started, %d expected", len(newJobs), want)
	}
	if fail != o.Failed {
		add("the command %s, want it to %s", map[bool]string{true: "failed", false: "succeeded"}[o.Failed],
			map[bool]string{true: "fail", false: "succeed"}[fail])
	}
	checkState(e, o, add)
	for _, j := range newJobs {
		if !claimed[j.ID] {
			add("job %s started (%s), which no instance holds as asked for", j.ID, describe(j))
		}
	}
	checkCancelled(e.Cancelled, o.Jobs, add)
	return ids, problems
}

// checkState checks the instances kept, and that the state holds nothing
// else, with the taints planned.
func checkState(e expect, o observed, add func(string, ...any)) {
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
		case swapped[a]:
		case !n && !k:
			add("%s is in the state (job %s), want it gone", a, o.State[a].ID)
		case o.State[a].Tainted != e.Tainted[a]:
			add("%s tainted: %t, want %t", a, o.State[a].Tainted, e.Tainted[a])
		}
	}
}

// checkCancelled checks that the jobs cancelled are the ones want names.
func checkCancelled(want map[string]bool, jobs []emulator.Job, add func(string, ...any)) {
	for _, j := range jobs {
		if (j.Status == emulator.StatusCancelled) != want[j.ID] {
			add("job %s is %s, want it cancelled: %t", j.ID, j.Status, want[j.ID])
		}
	}
}

// checkSwap checks swap group g (see group): its members hold distinct
// jobs, between g.Min and g.Max resumed ones (a tainted job handed over,
// an entry's; without entries, every tainted job), and otherwise new jobs
// of their own with the planned data, untainted if resumed, else as
// HangNew says. It records the jobs found
// in ids and claimed, and returns whether the command must fail (a new
// job whose wait timed out) and how many new jobs the group must start.
func checkSwap(e expect, o observed, g group, newJobs []emulator.Job, ids map[string]string, claimed map[string]bool, add func(string, ...any)) (bool, int) {
	fail, settled := false, 0
	resumable := sortedKeys(g.Tainted)
	if len(g.Entries) > 0 {
		resumable = append(resumable, sortedKeys(g.Entries)...)
	}
	held := map[string]string{}
	for _, a := range g.Members {
		got, ok := o.State[a]
		if !ok {
			add("%s is not in the state, want it to hold a job of %v (resumed %v, or new)", a, g.Members, resumable)
			continue
		}
		if other, dup := held[got.ID]; dup {
			add("%s holds job %s, as %s does; want distinct jobs in %v", a, got.ID, other, g.Members)
			continue
		}
		held[got.ID] = a
		tainted := false
		switch {
		case g.Tainted[got.ID] || g.Entries[got.ID]:
			settled++
		default:
			i := slices.IndexFunc(newJobs, func(j emulator.Job) bool { return j.ID == got.ID })
			if i < 0 || claimed[got.ID] {
				add("%s holds job %s, neither a resumed job %v nor a new job of its own", a, got.ID, resumable)
				continue
			}
			for _, p := range differs(g.Def, newJobs[i]) {
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
	for _, id := range sortedKeys(g.Tainted) {
		if _, ok := held[id]; !ok && len(g.Entries) == 0 {
			add("job %s, resumed, is held by none of %v", id, g.Members)
		}
	}
	if settled < g.Min || settled > g.Max {
		add("%v resume %d of the jobs %v, want %s", g.Members, settled, resumable, span(g.Min, g.Max))
	}
	return fail, g.news(min(max(settled, g.Min), g.Max))
}

// span is "n" or "n to m".
func span(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// checkNew checks that each instance that must hold a new job holds one
// of newJobs, with the planned data; it returns the ids and the jobs
// claimed.
func checkNew(e expect, o observed, newJobs []emulator.Job, add func(string, ...any)) (map[string]string, map[string]bool) {
	ids, claimed := map[string]string{}, map[string]bool{}
	for _, a := range sortedKeys(e.New) {
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
