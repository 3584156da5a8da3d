#!/usr/bin/env bash
# Runs the shell commands of every guide (docs/guides/*.md) as written, so a
# guide whose commands break fails the check (`make guides-check`).
#
# In a guide, in document order:
#   - a fenced block whose info string is `sh` holds commands: they run;
#   - a fenced block right after a line `<!-- file: PATH -->` is written to
#     PATH (relative to the guide's directory) instead of being run;
#   - ```shell, ```bash, ```console and ```zsh blocks are refused: every
#     command a guide shows must run (show output in ```text blocks);
#   - other blocks (terraform without a file comment, text, go) are left alone.
#
# Each guide runs in a new temporary directory as one bash script under
# `set -euo pipefail`, like a reader's terminal (variables and background jobs
# carry from block to block), in a process group of its own that is killed
# when it ends; the first failing command fails the check. Each block is
# printed before it runs. An emulator a guide started with
# `etl-emulator -background` runs in a session of its own, out of reach of
# that kill: TMPDIR is the guide's own .tmp/, where such an emulator's log
# file goes, and every emulator a log file there names that still runs when
# the guide ends is stopped (a guide that fails before its own `kill`).
#
# Stand-ins for what a reader reaches and this check does not:
#   - the Terraform registry: TF_CLI_CONFIG_FILE installs etl-provider/etl
#     from a filesystem mirror of the provider built from this checkout
#     (scripts/provider-mirror.sh);
#   - the release archives: etl-emulator built from this checkout is on PATH;
#   - the Go module proxy, for `go install .../etl-emulator@latest`: a file://
#     proxy serving this checkout's files (uncommitted edits and new files
#     included, ignored ones left out)
#     as the version CHANGELOG.md names, with a throwaway GOPATH and module
#     cache; other modules come from the local module cache, offline (they
#     were checked when downloaded: GOSUMDB is off, the checksum database
#     being out of reach too);
#   - `terraform`: the CLI scripts/terraform-bin.sh finds, on PATH as terraform.
#
#   scripts/guides-check.sh [GUIDE.md...]     default: docs/guides/*.md
#   GUIDES_TIMEOUT=600                         seconds per guide
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
check="$cache/guides-check"
module=github.com/etl-provider/terraform-provider-etl
timeout_s="${GUIDES_TIMEOUT:-600}"

# extract GUIDE: prints the guide as a bash script (files written, command
# blocks printed then run); fails on a shell block the check would not run.
extract() {
  awk -v guide="${1#"$root"/}" '
    function fail(msg) { printf "%s:%d: %s\n", guide, NR, msg > "/dev/stderr"; bad = 1; exit 1 }
    !inblock && /^<!-- file: [^ ]+ -->$/ { file = $3; next }
    !inblock && /^```/ {
      info = substr($0, 4)
      if (file != "") { mode = "file"; printf "mkdir -p \"$(dirname %s)\"\ncat >%s <<'"'"'__GUIDE_FILE__'"'"'\n", file, file }
      else if (info == "sh") { mode = "run"; blocks++; printf "printf '"'"'\\n--- %s:%d\\n'"'"'\ncat <<'"'"'__GUIDE_SHOW__'"'"'\n", guide, NR; n = 0 }
      else if (info ~ /^(shell|bash|console|zsh|sh-session)$/) fail("```" info " block: use ```sh (run by this check) or ```text (output)")
      else mode = "skip"
      inblock = 1; file = ""; next
    }
    inblock && /^```$/ {
      if (mode == "file") print "__GUIDE_FILE__"
      if (mode == "run") { print "__GUIDE_SHOW__"; for (i = 1; i <= n; i++) print body[i] }
      inblock = 0; next
    }
    inblock && mode == "file" { print; next }
    inblock && mode == "run" { print "$ " $0; body[++n] = $0; next }
    !inblock && NF > 0 { file = "" }
    END { if (!bad && inblock) fail("unclosed code block"); if (!bad) printf "# %d command blocks\n", blocks }
  ' "$1"
}

# stop_background_emulators DIR: stops each `etl-emulator -background` whose
# log file (DIR/etl-emulator-*.log, first line "... (pid N) in the
# background ...") names a process still running, and says so.
stop_background_emulators() {
  local log pid
  for log in "$1"/etl-emulator-*.log; do
    [[ -f "$log" ]] || continue
    pid="$(sed -n '1s/.*(pid \([0-9][0-9]*\)) in the background.*/\1/p' "$log")"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      echo "guides-check: stopping the emulator the guide left running (pid $pid, log $log)"
      kill "$pid" 2>/dev/null || true
    fi
  done
}

# go_proxy DIR VERSION: a file:// module proxy serving this checkout as VERSION:
# its files as they are on disk, tracked or new (not ignored), through a
# tree written from a copy of the index (no commit, no ref, the index itself
# untouched).
go_proxy() {
  local d="$1/$module/@v" v="v$2" index tree
  mkdir -p "$d"
  index="$(mktemp -d "${TMPDIR:-/tmp}/guides-index.XXXXXX")"
  cp "$(git -C "$root" rev-parse --path-format=absolute --git-path index)" "$index/index"
  GIT_INDEX_FILE="$index/index" git -C "$root" add -A .
  tree="$(GIT_INDEX_FILE="$index/index" git -C "$root" write-tree)"
  rm -rf "$index"
  git -C "$root" archive --format=zip --prefix="$module@$v/" -o "$d/$v.zip" "$tree"
  git -C "$root" show "$tree:go.mod" >"$d/$v.mod"
  printf '{"Version":"%s","Time":"%s"}\n' "$v" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$d/$v.info"
  printf '%s\n' "$v" >"$d/list"
}

guides=("$@")
if [[ ${#guides[@]} -eq 0 ]]; then
  guides=("$root"/docs/guides/*.md)
fi
for g in "${guides[@]}"; do
  extract "$g" >/dev/null # refuse unrunnable blocks before building anything
done

rm -rf "$check"
mkdir -p "$check/bin"
version="$("$root/scripts/provider-mirror.sh" "$check/provider")"
(cd "$root" && go build -o "$check/bin/etl-emulator" ./internal/emulator/cmd/etl-emulator)
ln -s "$("$root/scripts/terraform-bin.sh")" "$check/bin/terraform"
go_proxy "$check/goproxy" "$version"

# The reader's environment, with the stand-ins above.
gocache="$(go env GOCACHE)" modcache="$(go env GOMODCACHE)"
unset GOBIN GOPRIVATE GONOPROXY GONOSUMDB GOWORK TF_LOG TF_LOG_PROVIDER TF_PLUGIN_CACHE_DIR
export PATH="$check/bin:$PATH" TF_CLI_CONFIG_FILE="$check/provider/cli.tfrc" CHECKPOINT_DISABLE=1 \
  GOPATH="$check/gopath" GOMODCACHE="$check/gopath/pkg/mod" GOCACHE="$gocache" GOTOOLCHAIN=local \
  GOPROXY="file://$check/goproxy,file://$modcache/cache/download" GOSUMDB=off \
  GOFLAGS="${GOFLAGS:+$GOFLAGS }-modcacherw" \
  GODEBUG="${GODEBUG:+$GODEBUG,}goindex=0"
# goindex=0: the shared GOCACHE holds an index of each package of the module
# cache by its path, taken as immutable; this module is served again at the
# same path and version on every run, so an index from an earlier run would
# hide files added since (and list files removed).
# No colour codes in logs.
[[ -t 1 ]] || export TF_CLI_ARGS=-no-color
echo "guides-check: provider $version from a local mirror, $(terraform version | head -n 1)"

failed=()
for g in "${guides[@]}"; do
  name="${g#"$root"/}"
  work="$check/run/$(basename "$g" .md)"
  mkdir -p "$work"
  mkdir -p "$work/.tmp"
  extract "$g" >"$work/.guide.sh"
  printf '\n==> %s (%s)\n' "$name" "$(tail -n 1 "$work/.guide.sh" | sed 's/^# //')"
  rc=0
  set -m
  (cd "$work" && TMPDIR="$work/.tmp" exec timeout -k 10 "$timeout_s" bash -euo pipefail .guide.sh) &
  pid=$!
  set +m
  wait "$pid" || rc=$?
  kill -- "-$pid" 2>/dev/null || true
  stop_background_emulators "$work/.tmp"
  if [[ $rc -eq 0 ]]; then
    printf -- '--- ok    %s\n' "$name"
  else
    printf -- '--- FAIL  %s (exit %d; its files are in %s)\n' "$name" "$rc" "$work"
    failed+=("$name")
  fi
done

chmod -R u+w "$check/gopath" 2>/dev/null || true
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "guides-check: ${#failed[@]} of ${#guides[@]} guides failed: ${failed[*]}" >&2
  exit 1
fi
echo "guides-check: the commands of all ${#guides[@]} guides ran"
