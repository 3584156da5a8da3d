#!/usr/bin/env bash
# Installs a Go command at a pinned version from the Go module proxy (once)
# and prints the absolute path of its binary.
#
#   scripts/go-tool.sh NAME PACKAGE VERSION
#   scripts/go-tool.sh golangci-lint github.com/golangci/golangci-lint/v2/cmd/golangci-lint v2.15.0
#
# Binaries land in .cache/tools/NAME/VERSION/, so changing a pin installs the
# new version beside the old one instead of trusting a stale binary.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 NAME PACKAGE VERSION" >&2
  exit 2
fi
name="$1" pkg="$2" version="$3"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
dir="$cache/tools/$name/$version"
bin="$dir/$name"

if [[ ! -x "$bin" ]]; then
  mkdir -p "$dir"
  echo "go-tool: installing $pkg@$version into $dir" >&2
  start=$SECONDS
  # Outside the project's module, so the root go.mod is never touched.
  (cd "$dir" && GOWORK=off GOFLAGS='' GOBIN="$dir" go install "$pkg@$version") >&2
  echo "go-tool: installed $name $version in $((SECONDS - start))s" >&2
fi
printf '%s\n' "$bin"
