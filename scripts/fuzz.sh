#!/usr/bin/env bash
# Runs every fuzz target in the module, one after another, each for FUZZTIME.
#
#   scripts/fuzz.sh            each target for $FUZZTIME (default 2m)
#   scripts/fuzz.sh -list      print the targets found, as PACKAGE:NAME
#
# Targets are found, not listed by hand: every `func FuzzXxx(*testing.F)` in a
# package's _test.go files (as `go list` reports them, so build constraints
# apply). Set FUZZ_TARGETS="./internal/etl:FuzzCheckFile ..." to run a subset.
# Prints each target's last progress line (its execution count); a failure
# prints go test's output, including the path of the failing input under
# testdata/fuzz, and stops.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
FUZZTIME="${FUZZTIME:-2m}"

discover() {
  local root
  root="$(pwd -P)"
  # One line per test file: PACKAGE_DIR FILE.
  # shellcheck disable=SC2016 # a Go template, not a shell expansion
  go list -f '{{$d := .Dir}}{{range .TestGoFiles}}{{$d}} {{.}}
{{end}}{{range .XTestGoFiles}}{{$d}} {{.}}
{{end}}' ./... |
    while read -r dir file; do
      [[ -n "$dir" ]] || continue
      local pkg=".${dir#"$root"}"
      sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)([A-Za-z_][A-Za-z0-9_]* \*testing\.F).*/\1/p' "$dir/$file" |
        while read -r name; do printf '%s:%s\n' "$pkg" "$name"; done
    done | sort -u
}

if [[ -n "${FUZZ_TARGETS:-}" ]]; then
  read -ra targets <<<"$FUZZ_TARGETS"
else
  mapfile -t targets < <(discover)
fi
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "fuzz: no fuzz targets found (func FuzzXxx(f *testing.F) in a _test.go file)" >&2
  exit 1
fi

if [[ "${1:-}" == "-list" ]]; then
  printf '%s\n' "${targets[@]}"
  exit 0
fi

echo "fuzz: ${#targets[@]} target(s), each for $FUZZTIME"
for t in "${targets[@]}"; do
  pkg="${t%%:*}" name="${t##*:}"
  echo "fuzz: $name ($pkg) for $FUZZTIME"
  if ! out="$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" 2>&1)"; then
    printf '%s\n' "$out"
    echo "fuzz: $name ($pkg) FAILED" >&2
    exit 1
  fi
  printf '%s\n' "$out" | grep -E 'execs:' | tail -n 1 || true
  echo "fuzz: $name: $(printf '%s\n' "$out" | tail -n 1)"
done
