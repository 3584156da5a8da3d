package explore

import (
	"fmt"
	"slices"
	"strings"
)

// run.sh of a reproducer: the provider and the emulator built, the
// emulator served in the background, terraform init in a directory of its
// own, then each operation with its configuration. Kills are replayed at
// best: etl-emulator holds no job nor upload, so the script kills after
// KILL_AFTER seconds (RUN_TIME=1h makes jobs run long enough for a kill
// during a wait); an http backend is replaced by a local state file.

// previousCommit is the previous release of the provider, the one the
// upgrade steps start with (EXPLORE_PREVIOUS overrides it).
const previousCommit = "599e646"

// runScript is run.sh.
func runScript(f failure, text string) string {
	var sb strings.Builder
	sb.WriteString("#!/usr/bin/env bash\n# Reproduces what the explorer (internal/explore, make explore) found:\n")
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		sb.WriteString("#   " + line + "\n")
	}
	fmt.Fprintf(&sb, `# Override with CLI=..., ETL_REPO=... (scripts/, the emulator), PROVIDER_DIR=... (or a binary),
# KILL_AFTER=seconds (before a kill, default 2), RUN_TIME=... (the emulator's job run time, default 30ms).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cli="${CLI:-%s}"
repo="${ETL_REPO:-%s}"
provider_dir="${PROVIDER_DIR:-%s}"
work="$(mktemp -d "${TMPDIR:-/tmp}/explore-repro.XXXXXX")"
mkdir -p "$work/bin" "$work/tf"
if [[ -d "$provider_dir" ]]; then (cd "$provider_dir" && go build -o "$work/bin/terraform-provider-etl" .)
else cp "$provider_dir" "$work/bin/terraform-provider-etl"; fi
(cd "$repo" && go build -o "$work/etl-emulator" ./internal/emulator/cmd/etl-emulator)
plat="$(go env GOOS)_$(go env GOARCH)"
for a in %s; do
  mkdir -p "$work/mirror/$a/%s/$plat"
  ln -s "$work/bin/terraform-provider-etl" "$work/mirror/$a/%[5]s/$plat/terraform-provider-etl_v%[5]s"
done
# A CLI configuration: dev_overrides to the provider in $2, a mirror for terraform init.
cliconfig() {
  { echo 'provider_installation {'; echo '  dev_overrides {'
    for a in %[4]s; do echo "    \"$a\" = \"$2\""; done
    echo '  }'; echo "  filesystem_mirror { path = \"$work/mirror\" }"; echo '}'; } >"$1"
}
cliconfig "$work/cli.tfrc" "$work/bin"
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
`, f.CLI, f.Root, f.Provider, strings.Join(providerAddrs, " "), mirrorVersion)
	if f.Previous != "" {
		fmt.Fprintf(&sb, `# The previous release (commit %s) ran the steps until the upgrade step (all, without one): so here.
mkdir -p "$work/old" "$work/bin-old"
git -C "$repo" archive %[1]s | tar -x -C "$work/old"
(cd "$work/old" && go build -o "$work/bin-old/terraform-provider-etl" .)
cliconfig "$work/cli-old.tfrc" "$work/bin-old"
export TF_CLI_CONFIG_FILE="$work/cli-old.tfrc"
`, f.Previous)
	}
	sb.WriteString(scriptHelpers)
	if f.Seq.Remote {
		sb.WriteString("# The explorer used the http backend (a remote state, written every 20 s during an apply\n# and at its end, and locked); this script keeps a local state file.\n")
	}
	if n := slices.IndexFunc(f.Seq.Steps, func(s step) bool { return s.Kind == stepOp && s.Name != "upgrade" }); n >= 0 {
		fmt.Fprintf(&sb, "use %s\n\"$cli\" init -input=false >/dev/null\n", stepDir(n))
	}
	args := scriptArgs(f.Seq)
	for n, s := range f.Seq.Steps {
		sb.WriteString(scriptStep(f, n, s, args[n]))
	}
	sb.WriteString("\necho \"== what the explorer found (a job id that did not change is a job not started):\"\ncat \"$here/mismatch.txt\"\n")
	return sb.String()
}

// scriptHelpers are run.sh's functions: the emulator served, use (a
// step's configuration and data files, a file gone or unreadable as
// then), run (a command, going on if it fails), killed (a
// command killed after KILL_AFTER seconds, then an empty state file
// restored as the guide says), and jobs (the state's jobs).
const scriptHelpers = `eval "$("$work/etl-emulator" -background -run-time "${RUN_TIME:-30ms}" -required-columns off)"
trap 'kill "$ETL_EMULATOR_PID"; rm -rf "$work"' EXIT
cd "$work/tf"
use() { rm -rf main.tf data; cp -R "$here/$1/." .; }
run() { echo "+ $(basename "$cli") $*"; "$cli" "$@" || echo "(exit $?)"; }
killed() {
  local sig="$1"; shift
  echo "+ $(basename "$cli") $* (then $sig after ${KILL_AFTER:-2} s)"
  "$cli" "$@" & local pid=$!
  sleep "${KILL_AFTER:-2}"
  if [[ "$sig" == provider ]]; then pkill -KILL -P "$pid" terraform-provi || true; else kill -s "$sig" "$pid" 2>/dev/null || true; fi
  wait "$pid" || echo "(exit $?)"
  if [[ -f terraform.tfstate && ! -s terraform.tfstate ]]; then
    if [[ -f terraform.tfstate.backup ]]; then cp terraform.tfstate.backup terraform.tfstate; else rm terraform.tfstate; fi
    echo "(terraform.tfstate was empty: restored)"
  fi
}
job_id() { "$cli" state show "$1" | sed -n 's/^ *id *= *"\([^"]*\)"$/\1/p' | head -n 1; }
jobs() { echo "== state:"; "$cli" state list | grep '^etl_import' | while read -r a; do echo "  $a job $(job_id "$a")"; done || true; }
`

// killSignal is what killed sends for each kill.
var killSignal = map[string]string{"kill-upload": "KILL", "kill-wait": "KILL", "kill-provider": "provider", "interrupt": "INT"}

// scriptArgs is the workspace each workspace step of q names, by step
// (the model's names), as the explorer ran them.
func scriptArgs(q sequence) map[int]string {
	m := newModel(q.Init)
	m.remote = q.Remote
	out := map[int]string{}
	for n, s := range q.Steps {
		if s.Name == "workspace-new" || s.Name == "workspace-select" {
			var e expect
			m.workspace(s, &e)
			out[n] = e.Arg
		}
	}
	return out
}

// scriptStep is the lines of run.sh for step n; arg is its workspace.
func scriptStep(f failure, n int, s step, arg string) string {
	q := f.Seq
	switch {
	case s.Kind == stepEdit:
		return fmt.Sprintf("\n# %d. %s\n", n+1, s)
	case s.Name == "upgrade":
		return fmt.Sprintf("\n# %d. upgrade: the provider under test from here on\nexport TF_CLI_CONFIG_FILE=\"$work/cli.tfrc\"\n", n+1)
	}
	a := ""
	if c := q.configAt(n); s.Block < len(c.Blocks) {
		a = addr(c.Blocks[s.Block], s.Index)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n# %d. %s\nuse %s\n", n+1, s, stepDir(n))
	note := faultNote[s.Fault]
	if s.Name == "purge" || s.Name == "end-orphan" || s.Name == "end-job" || s.Name == "delete-template" {
		note = faultNote[s.Name]
	}
	if note != "" {
		fmt.Fprintf(&sb, "# fault, not reproducible with etl-emulator's flags: %s\n", note)
	}
	switch s.Name {
	case "import":
		fmt.Fprintf(&sb, "id=\"$(job_id '%s')\"\n", a)
	case "adopt":
		fmt.Fprintf(&sb, "id='%s' # the job of the journal the explorer adopted; etl-emulator's ids differ\n", f.IDs[n])
	case "workspace-new", "workspace-select":
		if arg == "" {
			return sb.String() + "# (skipped: no workspace with this backend, or no other one)\n"
		}
	case "other-dir":
		sb.WriteString("mkdir -p \"$work/other\" && cd \"$work/other\" && use " + stepDir(n) + " && \"$cli\" init -input=false >/dev/null\n")
	}
	if s.Name == "import" || s.Name == "adopt" {
		arg = "$id"
	}
	lines := cliArgs(s, a, arg)
	for i, args := range lines {
		call := "run "
		if isKill(s.Fault) && i == len(lines)-1 {
			call = "killed " + killSignal[s.Fault] + " "
		}
		sb.WriteString(call + quoteArgs(args) + "\n")
		if s.Name == "other-dir" && i == 0 {
			sb.WriteString("jobs\n")
		}
	}
	if s.Name == "other-dir" {
		sb.WriteString("cd \"$work/tf\" && rm -rf \"$work/other\"\n")
	}
	sb.WriteString("jobs\n")
	return sb.String()
}

// quoteArgs is args quoted for the shell ("$id" left to expand).
func quoteArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, arg := range args {
		quoted[i] = "'" + arg + "'"
		if arg == "$id" {
			quoted[i] = `"$id"`
		}
	}
	return strings.Join(quoted, " ")
}
