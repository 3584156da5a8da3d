#!/usr/bin/env bash
# Lints every GitHub Actions workflow (.github/workflows/*.yml, *.yaml) with
# actionlint, failing on any finding (`make workflows-check`). actionlint checks
# the workflow syntax, the expressions and their types (matrix, needs, steps
# outputs, contexts), job dependencies, action references and untrusted
# inputs in scripts; when shellcheck is on PATH, actionlint also runs it on
# every `run:` script. Without shellcheck the check still runs, and says that
# it skipped shellcheck.
#
#   scripts/workflows-check.sh ACTIONLINT [DIR]
#
# ACTIONLINT is the actionlint binary (GNUmakefile installs it pinned, from the
# Go module proxy, with scripts/go-tool.sh); DIR is the checkout whose
# workflows are linted (default: this one).
set -euo pipefail

actionlint="${1:?usage: $0 ACTIONLINT [DIR]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$(cd "${2:-$root}" && pwd)"
# Absolute, before cd: the binary may be given relative to the caller's directory.
if [[ "$actionlint" == */* ]]; then
  actionlint="$(cd "$(dirname "$actionlint")" && pwd)/$(basename "$actionlint")"
fi
if [[ ! -x "$actionlint" ]] && ! command -v "$actionlint" >/dev/null 2>&1; then
  echo "workflows-check: $actionlint is not an executable" >&2
  exit 2
fi

shopt -s nullglob
cd "$dir"
files=(.github/workflows/*.yml .github/workflows/*.yaml)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "workflows-check: no workflow in $dir/.github/workflows" >&2
  exit 1
fi

# -pyflakes=: no workflow has Python scripts, and a pyflakes on PATH must not
# change the outcome.
args=(-no-color -pyflakes=)
if shellcheck="$(command -v shellcheck)"; then
  args+=(-shellcheck="$shellcheck")
  with="with shellcheck $("$shellcheck" --version | sed -n 's/^version: //p')"
else
  args+=(-shellcheck=)
  with="without shellcheck (not on PATH: run: scripts are not checked)"
fi

echo "workflows-check: actionlint $("$actionlint" -version | sed -n 1p) $with"
if "$actionlint" "${args[@]}" "${files[@]}"; then
  printf 'ok    %s\n' "${files[@]}"
  exit 0
fi
echo "workflows-check: actionlint found problems in $dir/.github/workflows (see above)" >&2
exit 1
