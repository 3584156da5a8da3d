#!/usr/bin/env bash
# Prints the absolute path of the newest Terraform CLI the suite runs against.
#
# Order: $TERRAFORM_NEXT_PATH if set and executable; otherwise Terraform
# $TERRAFORM_NEXT_VERSION (default 1.16.4) built from the Go module proxy into
# .cache/terraform/<version>/terraform (built once, then reused).
#
# `go install github.com/hashicorp/terraform@v1.16.4` fails: Terraform's go.mod
# replaces the remote-state backend modules (azure, consul, cos, gcs,
# kubernetes, oci, oss, pg, s3) and internal/legacy with directories that the
# module zip does not contain. So the module source is downloaded with
# `go mod download`, copied to a writable directory, those replace and require
# lines are dropped from go.mod and the nine backends from
# internal/backend/init/init.go (the only file importing them), and the rest is
# built as Terraform's release does. The local backend, which the tests use,
# stays. On 2 cores the build takes about 4 minutes; progress goes to stderr,
# only the path goes to stdout. Concurrent runs wait for one build (flock).
set -euo pipefail

TERRAFORM_NEXT_VERSION="${TERRAFORM_NEXT_VERSION:-1.16.4}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
dest_dir="$cache/terraform/$TERRAFORM_NEXT_VERSION"
dest="$dest_dir/terraform"
module_path="github.com/hashicorp/terraform"

log() { printf 'terraform-next-bin: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

if [[ -n "${TERRAFORM_NEXT_PATH:-}" ]]; then
  [[ -x "$TERRAFORM_NEXT_PATH" ]] || die "TERRAFORM_NEXT_PATH=$TERRAFORM_NEXT_PATH is not an executable file"
  printf '%s\n' "$(cd "$(dirname "$TERRAFORM_NEXT_PATH")" && pwd)/$(basename "$TERRAFORM_NEXT_PATH")"
  exit 0
fi

if [[ -x "$dest" ]]; then
  printf '%s\n' "$dest"
  exit 0
fi

command -v go >/dev/null 2>&1 || die "go is required to build Terraform $TERRAFORM_NEXT_VERSION"
mkdir -p "$dest_dir"

# Local replace targets missing from the module zip: prints "module dir" pairs.
missing_replaces() {
  awk '$1 == "replace" && $3 == "=>" && $4 ~ /^\.\.?\// { print $2, $4 }' go.mod |
    while read -r mod dir; do
      [[ -d "$dir" ]] || printf '%s\n' "$mod"
    done
}

# Drops the replace and require lines of the modules named on stdin from go.mod.
drop_modules_from_gomod() {
  local mods="$1"
  awk -v mods="$mods" '
    BEGIN { n = split(mods, m, "\n"); for (i = 1; i <= n; i++) if (m[i] != "") drop[m[i]] = 1 }
    $1 == "replace" && ($2 in drop) { dropped++; next }
    $1 in drop { dropped++; next }            # inside require ( ... )
    $1 == "require" && ($2 in drop) { dropped++; next }
    { print }
    END { if (dropped == 0) exit 3 }
  ' go.mod >go.mod.new || die "go.mod: none of the expected replace/require lines were found"
  mv go.mod.new go.mod
  local mod
  while read -r mod; do
    if grep -qF "$mod " go.mod; then die "go.mod still names $mod after editing"; fi
  done <<<"$mods"
}

# Drops the imports of the dropped backends from init.go, and the map entries
# that construct them (lines calling ALIAS.New()).
drop_backends_from_init() {
  local mods="$1" file="internal/backend/init/init.go"
  [[ -f "$file" ]] || die "$file is missing: Terraform's layout changed; update this script"
  local aliases
  aliases="$(awk -v mods="$mods" '
    BEGIN { n = split(mods, m, "\n"); for (i = 1; i <= n; i++) if (m[i] != "") drop["\"" m[i] "\""] = 1 }
    NF == 2 && ($2 in drop) { print $1 }
  ' "$file")"
  local want got
  want="$(grep -c 'internal/backend/remote-state/' <<<"$mods" || true)"
  got="$(grep -c . <<<"$aliases" || true)"
  if [[ "$got" -ne "$want" ]]; then
    die "$file imports $got of the $want remote-state backends to drop: Terraform's layout changed; update this script"
  fi
  awk -v aliases="$aliases" -v mods="$mods" '
    BEGIN {
      n = split(aliases, a, "\n"); for (i = 1; i <= n; i++) if (a[i] != "") alias[a[i]] = 1
      n = split(mods, m, "\n"); for (i = 1; i <= n; i++) if (m[i] != "") drop["\"" m[i] "\""] = 1
    }
    NF == 2 && ($2 in drop) { next }
    {
      for (x in alias) if (index($0, x ".New(") > 0) next
      print
    }
  ' "$file" >"$file.new"
  mv "$file.new" "$file"
  local a
  while read -r a; do
    if grep -qw "$a" "$file"; then die "$file still uses $a after editing"; fi
  done <<<"$aliases"
  log "dropped backends from init.go: $(tr '\n' ' ' <<<"$aliases")"
}

build() {
  # Another process may have finished the build while we waited for the lock.
  if [[ -x "$dest" ]]; then
    return 0
  fi
  local start=$SECONDS module="$module_path@v$TERRAFORM_NEXT_VERSION"
  log "building Terraform v$TERRAFORM_NEXT_VERSION from the Go module proxy (once; about 4 minutes on 2 cores)"
  local info src
  info="$(cd "$dest_dir" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "$module")" || true
  src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$info")"
  if [[ -z "$src" || ! -d "$src" ]]; then
    die "go mod download $module gave no source directory: $(sed -n 's/^[[:space:]]*"Error": "\(.*\)"$/\1/p' <<<"$info")"
  fi
  # The module cache is read-only: build from a writable copy.
  # On EXIT, not RETURN: a failing step exits the script from inside build.
  work="$(mktemp -d "${TMPDIR:-/tmp}/terraform-src.XXXXXX")"
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  cp -R "$src/." "$work/"
  chmod -R u+w "$work"
  (
    cd "$work"
    local mods
    mods="$(missing_replaces)"
    [[ -n "$mods" ]] || die "go.mod has no replace directive to a missing directory: Terraform's layout changed; update this script"
    log "dropping modules absent from the zip: $(tr '\n' ' ' <<<"$mods")"
    drop_modules_from_gomod "$mods"
    drop_backends_from_init "$mods"
    GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0 \
      go build -trimpath \
      -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" \
      -o "$dest.tmp.$$" .
  ) || { rm -f "$dest.tmp.$$"; die "building Terraform v$TERRAFORM_NEXT_VERSION failed (see above)"; }
  local got
  got="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "$dest.tmp.$$" version 2>/dev/null | head -n 1)" || true
  if [[ "$got" != "Terraform v$TERRAFORM_NEXT_VERSION" ]]; then
    rm -f "$dest.tmp.$$"
    die "the built binary reports '$got', not 'Terraform v$TERRAFORM_NEXT_VERSION'"
  fi
  mv -f "$dest.tmp.$$" "$dest"
  log "built $dest in $((SECONDS - start))s"
}

if command -v flock >/dev/null 2>&1; then
  exec 9>"$dest_dir/.lock"
  flock 9
fi
build >&2
printf '%s\n' "$dest"
