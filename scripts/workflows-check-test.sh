#!/usr/bin/env bash
# Tests scripts/workflows-check.sh (run by `make workflows-check` after it):
# on a copy of this checkout's workflows in a temporary directory it must
# pass, and with a deliberately broken workflow
# (scripts/testdata/workflows-check/broken.yml) copied beside them it must
# fail, reporting each of the broken workflow's problems.
#
#   scripts/workflows-check-test.sh ACTIONLINT
set -euo pipefail

actionlint="${1:?usage: $0 ACTIONLINT}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check="$root/scripts/workflows-check.sh"
broken="$root/scripts/testdata/workflows-check/broken.yml"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/workflows-check-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/.github/workflows"
cp "$root"/.github/workflows/*.yml "$tmp/.github/workflows/"

fail() {
  echo "workflows-check-test: FAIL: $*" >&2
  sed 's/^/    /' "$tmp/out" >&2
  exit 1
}

if ! "$check" "$actionlint" "$tmp" >"$tmp/out" 2>&1; then
  fail "the check fails on a copy of the real workflows"
fi
echo "workflows-check-test: ok    passes on a copy of the real workflows"

cp "$broken" "$tmp/.github/workflows/broken.yml"
if "$check" "$actionlint" "$tmp" >"$tmp/out" 2>&1; then
  fail "the check passes with the broken workflow $broken"
fi

# Each problem, by the line actionlint reports it on and its rule.
line_of() { grep -n -m 1 -F -- "$1" "$broken" | cut -d: -f1; }
expect=(
  "$(line_of '  test:'):job-needs" # reported on the job that needs it
  "$(line_of 'uses: actions/checkout'):action"
  "$(line_of 'matrix.terraform'):expression"
  "$(line_of 'github.event.pull_request.title'):expression"
)
if command -v shellcheck >/dev/null 2>&1; then
  expect+=("$(line_of '- run: |'):shellcheck") # reported on the script's run: key
fi
for e in "${expect[@]}"; do
  line="${e%%:*}" rule="${e#*:}"
  if ! grep -qE "^\.github/workflows/broken\.yml:$line:[0-9]+: .*\[$rule\]$" "$tmp/out"; then
    fail "no [$rule] finding on line $line of broken.yml"
  fi
done
others="$(grep -E '^\.github/workflows/[^:]+:[0-9]+:[0-9]+: ' "$tmp/out" | grep -vc '^\.github/workflows/broken\.yml:' || true)"
[[ "$others" -eq 0 ]] || fail "findings in the real workflows"
echo "workflows-check-test: ok    fails on the broken workflow, with its ${#expect[@]} findings ($(grep -oE '\[[a-z-]+\]$' "$tmp/out" | sort | uniq -c | tr -s ' ' | tr '\n' ' '))"
