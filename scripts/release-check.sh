#!/usr/bin/env bash
# `make release-check`: the release pipeline of .goreleaser.yml, end to end,
# for a few targets instead of every one, so that CI pays for two builds rather
# than thirteen (a cold snapshot of every target took most of CI's time).
#
#   scripts/release-check.sh GORELEASER TARGET...
#   scripts/release-check.sh .cache/tools/goreleaser/v2.15.2/goreleaser linux_amd64 windows_386
#
# 1. `goreleaser check` on .goreleaser.yml as committed;
# 2. a snapshot release (build, archives, checksums, manifest; no signing, no
#    publishing) from a copy of it whose every build gets `targets: [TARGET...]`,
#    written to .cache/goreleaser/release-check.yml. goreleaser then ignores
#    goos, goarch and ignore for those builds, and says so in a warning.
#
# The defaults in GNUmakefile are this machine's platform and windows_386:
# one 32-bit and Windows build catches what the other platforms would (int
# sizes, 64-bit atomics alignment, OS-specific code). `make release-snapshot`
# builds every target.
set -euo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 GORELEASER TARGET..." >&2
  exit 2
fi
gr="$1"
shift
targets="$(printf '%s, ' "$@")"
targets="${targets%, }"

cd "$(dirname "${BASH_SOURCE[0]}")/.."
cache="${ETL_CACHE_DIR:-$PWD/.cache}"
config=.goreleaser.yml
derived="$cache/goreleaser/release-check.yml"
mkdir -p "$(dirname "$derived")"

# A snapshot takes its version from the newest tag, and fails on a tag that
# is not a version (a marker tag, say): give it the newest vX.Y.Z tag, or
# v0.0.0 when there is none.
if [[ -z "${GORELEASER_CURRENT_TAG:-}" ]]; then
  GORELEASER_CURRENT_TAG="$(git tag --list 'v[0-9]*.[0-9]*.[0-9]*' --sort=-v:refname | head -n 1)"
  export GORELEASER_CURRENT_TAG="${GORELEASER_CURRENT_TAG:-v0.0.0}"
fi

"$gr" --version 2>/dev/null | grep -i '^gitversion' || true
"$gr" check "$config"

# Under the top-level `builds:` key, after each list item at the first item's
# indentation, insert `targets: [...]` at that item's key indentation.
awk -v targets="$targets" '
  /^[^[:space:]#]/ { inbuilds = ($0 ~ /^builds:[[:space:]]*$/); indent = -1 }
  { print }
  inbuilds && match($0, /^[[:space:]]*- /) {
    if (indent < 0) indent = RLENGTH - 2
    if (RLENGTH - 2 == indent) {
      printf "%" (indent + 2) "s%s\n", "", "targets: [" targets "]"
      inserted++
    }
  }
  END { if (!inserted) exit 3 }
' "$config" >"$derived.tmp" || {
  echo "release-check: found no list item under 'builds:' in $config to give targets to" >&2
  exit 1
}
mv -f "$derived.tmp" "$derived"
echo "release-check: snapshot of $config for $targets ($derived)"
# shellcheck disable=SC2086 # GORELEASER_ARGS is a list of flags
"$gr" release --snapshot --clean --skip=sign,publish --config "$derived" ${GORELEASER_ARGS:-}
