package explore

import (
	"fmt"
	"strings"
	"time"
)

// figures counts what the explorer ran and found.
type figures struct {
	Sequences, Steps, Skipped, Mismatches, ShrinkRuns int
	JobsExpected, JobsStarted                         int
	KillJobs, KillMost                                int // jobs killed applies started, and the most they could
	Restores                                          int // state files found empty after a kill, and restored
	Reruns                                            int // sequences run again after a command ran over cliTimeout
	Upgrades                                          int // upgrade steps run (from the previous release)
	Scenes                                            int // operations the previous release ran (takeScene)
	SceneDiffs                                        []string
	Edits, Ops, Faults                                map[string]int
	Kills, Fired                                      map[string]int // kills run, and those that fired
	Backends                                          map[string]int // sequences by backend
	Start                                             time.Time
}

func newFigures() *figures {
	return &figures{Edits: map[string]int{}, Ops: map[string]int{}, Faults: map[string]int{}, Kills: map[string]int{},
		Fired: map[string]int{}, Backends: map[string]int{}, Start: time.Now()}
}

// countStep records one step that ran (skipped: its target was not
// there); a nil f counts nothing.
func (f *figures) countStep(s step, skipped bool) {
	if f == nil {
		return
	}
	f.Steps++
	switch {
	case s.Kind == stepEdit:
		f.Edits[s.Name]++
	case skipped:
		f.Skipped++
	default:
		f.Ops[s.Name]++
		if isKill(s.Fault) {
			f.Kills[s.Fault]++
		} else if s.Fault != "" {
			f.Faults[s.Fault]++
		}
	}
}

// countScene records an operation the previous release ran, and how it
// differed from the model (problems), for the log; a nil f counts nothing.
func (f *figures) countScene(seed int64, s step, problems []string) {
	if f == nil {
		return
	}
	f.Scenes++
	if len(problems) > 0 {
		f.SceneDiffs = append(f.SceneDiffs, fmt.Sprintf("seed %d, %s (previous release): %s", seed, s, strings.Join(problems, "; ")))
	}
}

// countJobs records the jobs one operation was expected to start, and
// started; a nil f counts nothing.
func (f *figures) countJobs(expected, started int) {
	if f == nil {
		return
	}
	f.JobsExpected += expected
	f.JobsStarted += started
}

// countKill records a kill that fired, the jobs its apply started and the
// most it could; a nil f counts nothing.
func (f *figures) countKill(fault string, started, most int) {
	if f == nil {
		return
	}
	f.Fired[fault]++
	f.KillJobs += started
	f.KillMost += most
}

// String is the figures, one line each, the last one the closing line.
func (f *figures) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "edits:      %s\n", counts(f.Edits, editNames))
	fmt.Fprintf(&sb, "operations: %s (skipped, target absent: %d)\n", counts(f.Ops, opNames), f.Skipped)
	fmt.Fprintf(&sb, "faults:     %s\n", counts(f.Faults, faultNames))
	kills := make([]string, len(killNames))
	for i, k := range killNames {
		kills[i] = fmt.Sprintf("%s=%d", k, f.Kills[k])
		if f.Fired[k] != f.Kills[k] {
			kills[i] += fmt.Sprintf(" (%d fired)", f.Fired[k])
		}
	}
	fmt.Fprintf(&sb, "kills:      %s; state files restored after a kill: %d\n", strings.Join(kills, " "), f.Restores)
	fmt.Fprintf(&sb, "backends:   %s (sequences); upgrades from the previous release: %d\n", counts(f.Backends, []string{"local", "http"}), f.Upgrades)
	fmt.Fprintf(&sb, "previous:   %d operations of the previous release set the scene, %d of them not as the model has it (not mismatches)\n", f.Scenes, len(f.SceneDiffs))
	fmt.Fprintf(&sb, "jobs:       %d expected, %d started; killed applies: %d started (at most %d)\n", f.JobsExpected, f.JobsStarted, f.KillJobs, f.KillMost)
	fmt.Fprintf(&sb, "reruns:     %d (a command ran over the explorer's time limit)\n", f.Reruns)
	fmt.Fprintf(&sb, "explore: %d sequences, %d steps, %d mismatches, %d shrink runs, %s\n",
		f.Sequences, f.Steps, f.Mismatches, f.ShrinkRuns, time.Since(f.Start).Round(time.Second))
	return sb.String()
}

// counts is "name=n" for each of names, in that order.
func counts(m map[string]int, names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%d", n, m[n])
	}
	return strings.Join(parts, " ")
}
