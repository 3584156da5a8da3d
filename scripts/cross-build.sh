#!/usr/bin/env bash
# Vets, for each system the provider is meant to run on (`make cross-build`),
# the packages whose code differs between systems, so that build-tagged
# files that only compile on some systems are caught here rather than by a
# release.
#
#   scripts/cross-build.sh [GOOS...]    default: the systems below
#
# The packages are found, not listed: every package with a Go file that
# carries a system build constraint (//go:build naming unix or a GOOS) or
# imports syscall or golang.org/x/sys. The rest of the tree is the same Go
# on every system, and is built by `make test` (this system) and by
# `make release-check` (windows_386 through goreleaser).
#
# For each GOOS, with GOARCH=amd64 (arm64 where Go has no amd64 port for it)
# and CGO_ENABLED=0: go vet on those packages (vet compiles them and
# type-checks their tests). Each system's line says ok or FAIL and how long
# it took; a failing system's errors are printed under it. Every system is
# tried; the exit status is 1 when any failed.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

systems=("$@")
if [[ ${#systems[@]} -eq 0 ]]; then
  systems=(linux darwin windows freebsd openbsd netbsd dragonfly solaris)
fi
ports="$(go tool dist list)"

goos_re='unix|aix|android|darwin|dragonfly|freebsd|illumos|ios|js|linux|netbsd|openbsd|plan9|solaris|wasip1|windows'
mapfile -t pkgs < <(
  grep -rlE --include='*.go' \
    -e "^//go:build .*\\b($goos_re)\\b" -e '"syscall"' -e '"golang.org/x/sys/' \
    --exclude-dir=.cache --exclude-dir=.git . |
    xargs -n1 dirname | sort -u
)
if [[ ${#pkgs[@]} -eq 0 ]]; then
  echo "cross-build: no package has system-specific code" >&2
  exit 1
fi
echo "cross-build: packages with system-specific code: ${pkgs[*]}"

failed=()
total_start=$SECONDS
for os in "${systems[@]}"; do
  arch=amd64
  if ! grep -qx "$os/amd64" <<<"$ports"; then
    arch=arm64
    if ! grep -qx "$os/arm64" <<<"$ports"; then
      printf '%-10s FAIL  Go has neither %s/amd64 nor %s/arm64\n' "$os" "$os" "$os"
      failed+=("$os")
      continue
    fi
  fi
  start=$(date +%s.%N)
  rc=0
  out="$(GOOS="$os" GOARCH="$arch" CGO_ENABLED=0 go vet "${pkgs[@]}" 2>&1)" || rc=$?
  took="$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1fs", e - s }')"
  if [[ $rc -eq 0 ]]; then
    printf '%-10s ok    %-14s %s\n' "$os" "$os/$arch" "$took"
  else
    printf '%-10s FAIL  %-14s %s\n' "$os" "$os/$arch" "$took"
    printf '%s\n' "$out" | sed 's/^/           /'
    failed+=("$os")
  fi
done

printf 'cross-build: %d of %d systems vetted in %ds\n' \
  "$((${#systems[@]} - ${#failed[@]}))" "${#systems[@]}" "$((SECONDS - total_start))"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "cross-build: failed: ${failed[*]}" >&2
  exit 1
fi
