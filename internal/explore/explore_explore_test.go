//go:build explore

package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestExplore runs the scenarios, then seeded random sequences, with the
// CLI against the emulator (see the package comment). Settings, from the
// environment:
//   - EXPLORE_CLI: default, terraform-next, tofu, or a path;
//   - EXPLORE_SEED: the first random sequence's seed (default from the clock);
//   - EXPLORE_SEQUENCES: how many random sequences (0: as many as
//     EXPLORE_BUDGET allows, default 3m; EXPLORE_BUDGET=0s: the scenarios
//     alone); EXPLORE_STEPS: steps per sequence (default 8);
//   - EXPLORE_SCENARIOS=0: no scenarios; EXPLORE_SCENARIO=N: scenario N
//     alone (N as in its reproducer's name, terraform-scenario-N);
//   - EXPLORE_PROVIDER_DIR or EXPLORE_PROVIDER_BIN: the provider (default
//     built from the repository);
//   - EXPLORE_OUT: where the reproducers go (default .cache/explore);
//   - EXPLORE_SHRINK_RUNS: runs per shrunk mismatch (default 20);
//     EXPLORE_SHRINK_MAX: how many mismatches are shrunk (default 4);
//   - EXPLORE_WEIGHTS: weights of operations, edits, faults and kills,
//     such as "replace=0,format=30,kill-wait=100", and the shares (in
//     percent) of sequences with the http backend, with an upgrade from
//     the previous release and ending with a template deleted, and of
//     steps that start a chain of the end of a resource's life,
//     "remote=33,upgrade=25,delete-template=15,life=6", with the chains'
//     weights, "file=5,adopted-template=2";
//   - EXPLORE_PREVIOUS: the commit of the previous release (599e646),
//     built once into .cache/explore/provider-<commit>/;
//   - EXPLORE_DEBUG=1: each kill's outcome and output on stderr;
//   - EXPLORE_EMULATOR_RULES: the emulator's choices of the rules no public
//     source shows, as ETL_TEST_EMULATOR_RULES.
func TestExplore(t *testing.T) {
	s := newSetup(t)
	seed := int64(envInt("EXPLORE_SEED", int(time.Now().UnixNano()%1_000_000)))
	sequences, steps := envInt("EXPLORE_SEQUENCES", 0), envInt("EXPLORE_STEPS", 8)
	budget, err := time.ParseDuration(envOr("EXPLORE_BUDGET", "3m"))
	if err != nil {
		t.Fatal(err)
	}
	if err := setWeights(os.Getenv("EXPLORE_WEIGHTS")); err != nil {
		t.Fatal(err)
	}
	version, _ := s.cli(s.CLIConfig, s.Root, "", "version")
	s.Tofu = strings.HasPrefix(version, "OpenTofu")
	previous := "none: no upgrade steps"
	if s.OldCLIConfig != "" {
		previous = envOr("EXPLORE_PREVIOUS", previousCommit)
	}
	t.Logf("CLI %s (%s), provider %s, previous release %s, first seed %d, %d steps per sequence, emulator rules %q",
		strings.SplitN(version, "\n", 2)[0], s.CLI, s.Provider, previous, seed, steps, os.Getenv("EXPLORE_EMULATOR_RULES"))
	fig := newFigures()
	shrunk := 0
	var found []string // each mismatch in a line, repeated at the end, where a log's tail shows it
	fixed := scenarios()
	switch n := envInt("EXPLORE_SCENARIO", 0); {
	case os.Getenv("EXPLORE_SCENARIOS") == "0":
		fixed = nil
	case n > 0 && n <= len(fixed):
		fixed = fixed[n-1 : n]
	}
	more := func(i int) bool {
		if sequences > 0 {
			return i < sequences+len(fixed)
		}
		return i < len(fixed) || time.Since(fig.Start) < budget
	}
	for i := 0; more(i); i++ {
		var q sequence
		if i < len(fixed) {
			q = fixed[i]
		} else {
			q = generate(seed+int64(i-len(fixed)), steps)
		}
		fig.Sequences++
		fig.Backends[q.backend()]++
		oc := s.runSeq(q, fig)
		if oc.At >= 0 && slices.Contains(oc.Problems, cliTimedOutNote) {
			// A command cut short by the explorer's own time limit (a
			// loaded machine) says nothing of the provider: the sequence
			// runs once more, and a second time limit is a mismatch.
			fig.Reruns++
			t.Logf("sequence %d (seed %d): %s at step %d; run again", i, q.Seed, cliTimedOutNote, oc.At+1)
			oc = s.runSeq(q, fig)
		}
		if oc.At < 0 {
			continue
		}
		fig.Mismatches++
		q.Steps = q.Steps[:oc.At+1]
		if q.Name == "" && shrunk < envInt("EXPLORE_SHRINK_MAX", 4) {
			shrunk++
			q, oc = s.shrinkSeq(q, oc, fig)
		}
		found = append(found, s.report(t, q, oc))
	}
	logFigures(t, fig)
	if fig.Mismatches > 0 {
		t.Errorf("%d of %d sequences found a mismatch with the model:\n%s", fig.Mismatches, fig.Sequences, strings.Join(found, "\n"))
	}
}

// logFigures logs the figures, a line each, then how the previous
// release's operations differed from the model (not mismatches).
func logFigures(t *testing.T, fig *figures) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimRight(fig.String(), "\n"), "\n") {
		t.Log(line)
	}
	for _, line := range fig.SceneDiffs {
		t.Log("the scene: " + line)
	}
}

// shrinkSeq shrinks a failing sequence, returning it with its outcome.
func (s setup) shrinkSeq(q sequence, oc outcome, fig *figures) (sequence, outcome) {
	last, want := oc, kinds(oc.Problems)
	fails := func(try sequence) (int, bool) {
		o := s.runSeq(try, nil)
		ok := o.At >= 0 && hasKinds(o.Problems, want)
		if ok {
			last = o
		}
		return o.At, ok
	}
	q, runs := shrink(q, fails, envInt("EXPLORE_SHRINK_RUNS", 20))
	fig.ShrinkRuns += runs
	if runs > 0 { // the last failing run may not be the kept one: run it again
		if o := s.runSeq(q, nil); o.At >= 0 && hasKinds(o.Problems, want) {
			q.Steps, last = q.Steps[:o.At+1], o
		}
	}
	return q, last
}

// report logs a mismatch and writes its reproducer; it returns the
// mismatch in a line: the sequence, the step, the problems, the
// reproducer.
func (s setup) report(t *testing.T, q sequence, oc outcome) string {
	t.Helper()
	base := fmt.Sprintf("%s-seed-%d", filepath.Base(s.CLI), q.Seed)
	if q.Name != "" {
		base = fmt.Sprintf("%s-scenario-%d", filepath.Base(s.CLI), -q.Seed)
	}
	dir := filepath.Join(envOr("EXPLORE_OUT", filepath.Join(s.Root, ".cache", "explore")), base)
	_ = os.RemoveAll(dir)
	f := failure{Seq: q, Problems: oc.Problems, CLI: s.CLI, Root: s.Root, Provider: s.Provider, IDs: oc.IDs, Output: oc.Output}
	if q.Previous && s.OldCLIConfig != "" {
		f.Previous = envOr("EXPLORE_PREVIOUS", previousCommit)
	}
	err := writeRepro(dir, f)
	name := fmt.Sprintf("seed %d", q.Seed)
	if q.Name != "" {
		name = fmt.Sprintf("scenario %q", q.Name)
	}
	msg := fmt.Sprintf("MISMATCH %s (%s backend), at step %d of the shrunk sequence:\n%s  mismatches:\n    %s\n  output:\n    %s\n  its last lines:\n    %s\n  reproducer: %s/run.sh (the whole output: output.txt)",
		name, q.backend(), oc.At+1, listSteps(q.Steps), strings.Join(oc.Problems, "\n    "), strings.Join(oc.Notes, "\n    "),
		strings.Join(lastLines(oc.Output, 12), "\n    "), dir)
	if err != nil {
		msg += " (not written: " + err.Error() + ")"
	}
	t.Log(msg)
	return fmt.Sprintf("  %s (%s backend), step %d: %s; %s/run.sh", name, q.backend(), oc.At+1, strings.Join(oc.Problems, "; "), dir)
}

// lastLines is out's last n lines that are not blank.
func lastLines(out string, n int) []string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return keep[max(0, len(keep)-n):]
}

// setWeights sets the weights spec names ("name=n,...").
func setWeights(spec string) error {
	for _, kv := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' }) {
		name, v, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		found := false
		for _, w := range []map[string]int{opWeights, editWeights, faultWeights, rateWeights, lifeWeights} {
			if _, ok := w[name]; ok && err == nil && n >= 0 {
				w[name], found = n, true
			}
		}
		if !found {
			return fmt.Errorf("EXPLORE_WEIGHTS: %q is not name=n for an operation, edit, fault, kill, rate (remote, upgrade, life, delete-template) or chain of life (file, adopted-template)", kv)
		}
	}
	return nil
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}
