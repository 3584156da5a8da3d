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
	CLI      string // the CLI's path
	Root     string // the repository: scripts/ and the emulator
	Provider string // the provider's source directory
}

// writeRepro writes into dir a reproducer of f: step-NN/ (main.tf and
// data/ in effect at each operation), main.tf and data/ as at the failing
// step, mismatch.txt, and run.sh, which replays the operations with the CLI
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
		if err := writeConfig(filepath.Join(dir, stepDir(n)), q.configAt(n)); err != nil {
			return err
		}
	}
	if err := writeConfig(dir, q.configAt(len(q.Steps))); err != nil {
		return err
	}
	text := fmt.Sprintf("%sseed %d, CLI %s: at step %d (%s):\n  %s\nsteps:\n%s", scenarioLabel(q), q.Seed, f.CLI, len(q.Steps),
		q.Steps[len(q.Steps)-1], strings.Join(f.Problems, "\n  "), listSteps(q.Steps))
	if err := os.WriteFile(filepath.Join(dir, "mismatch.txt"), []byte(text), 0o644); err != nil {
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

// runScript is run.sh: build the provider and the emulator, serve the
// emulator in the background, then each operation with its configuration.
func runScript(f failure, text string) string {
	var sb strings.Builder
	sb.WriteString("#!/usr/bin/env bash\n# Reproduces what the explorer (internal/explore, make explore) found:\n")
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		sb.WriteString("#   " + line + "\n")
	}
	fmt.Fprintf(&sb, `# Override with CLI=..., ETL_REPO=... (scripts/, the emulator), PROVIDER_DIR=...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cli="${CLI:-%s}"
repo="${ETL_REPO:-%s}"
provider_dir="${PROVIDER_DIR:-%s}"
work="$(mktemp -d "${TMPDIR:-/tmp}/explore-repro.XXXXXX")"
mkdir -p "$work/bin" "$work/tf"
(cd "$provider_dir" && go build -o "$work/bin/terraform-provider-etl" .)
(cd "$repo" && go build -o "$work/etl-emulator" ./internal/emulator/cmd/etl-emulator)
"$repo/scripts/cli-config.sh" "$work/cli.tfrc" "$work/bin"
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
eval "$("$work/etl-emulator" -background -run-time 30ms)"
trap 'kill "$ETL_EMULATOR_PID"; rm -rf "$work"' EXIT
cd "$work/tf"
use() { rm -f main.tf; cp -R "$here/$1/." .; }
run() { echo "+ $(basename "$cli") $*"; "$cli" "$@" || echo "(exit $?)"; }
job_id() { "$cli" state show "$1" | sed -n 's/^ *id *= *"\([0-9]*\)"$/\1/p' | head -n 1; }
jobs() { echo "== state:"; "$cli" state list | grep '^etl_import' | while read -r a; do echo "  $a job $(job_id "$a")"; done || true; }
`, f.CLI, f.Root, f.Provider)
	for n, s := range f.Seq.Steps {
		sb.WriteString(scriptStep(f.Seq, n, s))
	}
	sb.WriteString("\necho \"== what the explorer found (a job id that did not change is a job not started):\"\ncat \"$here/mismatch.txt\"\n")
	return sb.String()
}

// scriptStep is the lines of run.sh for step n.
func scriptStep(q sequence, n int, s step) string {
	if s.Kind == stepEdit {
		return fmt.Sprintf("\n# %d. %s\n", n+1, s)
	}
	c := q.configAt(n)
	a := ""
	if s.Block < len(c.Blocks) {
		a = addr(c.Blocks[s.Block], s.Index)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n# %d. %s\nuse %s\n", n+1, s, stepDir(n))
	note := faultNote[s.Fault]
	if s.Name == "purge" {
		note = faultNote["purge"]
	}
	if note != "" {
		fmt.Fprintf(&sb, "# fault, not reproducible with etl-emulator's flags: %s\n", note)
	}
	if s.Name == "import" {
		fmt.Fprintf(&sb, "id=\"$(job_id '%s')\"\n", a)
	}
	for _, args := range cliArgs(s, a, "$id") {
		quoted := make([]string, len(args))
		for i, arg := range args {
			quoted[i] = "'" + arg + "'"
			if arg == "$id" {
				quoted[i] = `"$id"`
			}
		}
		sb.WriteString("run " + strings.Join(quoted, " ") + "\n")
	}
	sb.WriteString("jobs\n")
	return sb.String()
}
