package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// failure is a mismatch to reproduce: the sequence up to and including
// the step that failed (its last), and what differed there.
type failure struct {
	Seq      sequence
	Problems []string
	CLI      string         // the CLI's path
	Root     string         // the repository: scripts/ and the emulator
	Provider string         // the provider's source directory
	IDs      map[int]string // the jobs adopted, by step
	Output   string         // the CLI's whole output at the failing step
	// Previous is the commit of the previous release that ran the steps
	// before the upgrade step (all of them, without one); "" none did.
	Previous string
}

// writeRepro writes into dir a reproducer of f: step-NN/ (main.tf and
// data/ in effect at each operation: a file gone is not there, an
// unreadable one is a loop of symbolic links), main.tf and data/ as at
// the failing step, mismatch.txt, output.txt (what the CLI printed at the failing
// step), and run.sh, which replays the operations with the CLI
// against etl-emulator.
func writeRepro(dir string, f failure) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	q := f.Seq
	for n, s := range q.Steps {
		if s.Kind != stepOp {
			continue
		}
		if err := writeConfigFiles(filepath.Join(dir, stepDir(n)), q.configAt(n), true); err != nil {
			return err
		}
	}
	if err := writeConfigFiles(dir, q.configAt(len(q.Steps)), true); err != nil {
		return err
	}
	text := fmt.Sprintf("%sseed %d, CLI %s, %s backend: at step %d (%s):\n  %s\nsteps:\n%s", scenarioLabel(q), q.Seed, f.CLI, q.backend(),
		len(q.Steps), q.Steps[len(q.Steps)-1], strings.Join(f.Problems, "\n  "), listSteps(q.Steps))
	if err := os.WriteFile(filepath.Join(dir, "mismatch.txt"), []byte(text), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "output.txt"), []byte(f.Output), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "run.sh"), []byte(runScript(f, text)), 0o755)
}

// scenarioLabel is "scenario NAME, " for a scenario, else "".
func scenarioLabel(q sequence) string {
	if q.Name == "" {
		return ""
	}
	return fmt.Sprintf("scenario %q, ", q.Name)
}

func stepDir(n int) string { return fmt.Sprintf("step-%02d", n+1) }

// listSteps is the steps, one a line, numbered from 1.
func listSteps(steps []step) string {
	var sb strings.Builder
	for n, s := range steps {
		fmt.Fprintf(&sb, "  %2d. %s\n", n+1, s)
	}
	return sb.String()
}
