#!/usr/bin/env bash
# Prints the absolute path of an OpenTofu CLI.
#
# Order: $TOFU_PATH if set and executable; `tofu` on PATH; otherwise OpenTofu
# $TOFU_VERSION built from the Go module proxy into
# .cache/tofu/<version>/tofu (built once, then reused).
#
# OpenTofu cannot be installed with `go install module@version` (its go.mod has
# replace directives), so the module source is downloaded with
# `go mod download` and built from that tree. On 2 cores that takes about
# four minutes; progress goes to stderr, only the path goes to stdout.
#
# Set TOFU_FORCE_BUILD=1 to ignore a tofu on PATH and use the pinned build.
set -euo pipefail

TOFU_VERSION="${TOFU_VERSION:-1.12.6}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
dest_dir="$cache/tofu/$TOFU_VERSION"
dest="$dest_dir/tofu"

log() { printf 'tofu-bin: %s\n' "$*" >&2; }

if [[ -n "${TOFU_PATH:-}" && -x "${TOFU_PATH}" ]]; then
  printf '%s\n' "$(cd "$(dirname "$TOFU_PATH")" && pwd)/$(basename "$TOFU_PATH")"
  exit 0
fi

if [[ "${TOFU_FORCE_BUILD:-0}" != 1 ]] && command -v tofu >/dev/null 2>&1; then
  command -v tofu
  exit 0
fi

if [[ -x "$dest" ]]; then
  printf '%s\n' "$dest"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "go is required to build OpenTofu"; exit 1; }
mkdir -p "$dest_dir"

build() {
  # Another process may have finished the build while we waited for the lock.
  if [[ -x "$dest" ]]; then
    return 0
  fi
  local module="github.com/opentofu/opentofu@v$TOFU_VERSION"
  log "building OpenTofu v$TOFU_VERSION from the Go module proxy (once; about 4 minutes on 2 cores)"
  local src
  src="$(cd "$dest_dir" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "$module" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  if [[ -z "$src" || ! -d "$src" ]]; then
    log "go mod download $module gave no source directory"
    return 1
  fi
  # The module cache is read-only: build from a writable copy.
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/tofu-src.XXXXXX")"
  # shellcheck disable=SC2064
  trap "chmod -R u+w '$work' 2>/dev/null; rm -rf '$work'" RETURN
  cp -R "$src/." "$work/"
  chmod -R u+w "$work"
  local start=$SECONDS
  (
    cd "$work"
    GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
      go build -trimpath \
      -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
      -o "$dest.tmp" ./cmd/tofu
  )
  mv -f "$dest.tmp" "$dest"
  log "built $dest in $((SECONDS - start))s"
}

if command -v flock >/dev/null 2>&1; then
  exec 9>"$dest_dir/.lock"
  flock 9
fi
build >&2
printf '%s\n' "$dest"
