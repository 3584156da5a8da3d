#!/usr/bin/env bash
# Runs `go test -json ARGS...`, prints what plain `go test ARGS...` prints
# (a line per package; a failing test's output and its --- FAIL line; with -v,
# everything), and ends with one line counting the tests, subtests included:
#
#   tests: 412 passed, 0 failed, 9 skipped
#
# Exits with go test's exit status.
#
#   scripts/go-test.sh ./... -race -count=1
set -uo pipefail

verbose=0
for arg in "$@"; do
  case "$arg" in
  -v | -v=true | --v | --v=true | -test.v | -test.v=true) verbose=1 ;;
  esac
done

# test2json events are single-line JSON objects whose fields come in a fixed
# order (Time, Action, Package, Test, Elapsed, Output); only Output needs
# decoding. Go escapes <, >, &, U+2028, U+2029, control characters and invalid
# UTF-8 as \uXXXX, none of them above U+FFFF. LC_ALL=C: %c makes one byte.
# shellcheck disable=SC2016
program='
function field(name,   re) {
  re = "\"" name "\":\"([^\"\\\\]|\\\\.)*\""
  if (!match($0, re)) return ""
  return substr($0, RSTART + length(name) + 4, RLENGTH - length(name) - 5)
}
function hexval(h,   i, v) {
  v = 0
  for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
  return v
}
function utf8(cp) {
  if (cp < 128) return sprintf("%c", cp)
  if (cp < 2048) return sprintf("%c%c", 192 + int(cp / 64), 128 + cp % 64)
  return sprintf("%c%c%c", 224 + int(cp / 4096), 128 + int(cp / 64) % 64, 128 + cp % 64)
}
function decode(s,   out, i, c) {
  out = ""
  while ((i = index(s, "\\")) > 0) {
    out = out substr(s, 1, i - 1)
    c = substr(s, i + 1, 1)
    if (c == "u") { out = out utf8(hexval(substr(s, i + 2, 4))); s = substr(s, i + 6); continue }
    if (c == "n") c = "\n"; else if (c == "t") c = "\t"; else if (c == "r") c = "\r"
    else if (c == "b") c = "\b"; else if (c == "f") c = "\f"
    out = out c
    s = substr(s, i + 2)
  }
  return out s
}
# Tests of the package (prefix "PKG ", or all: "") that never ended: shown and
# counted, so that a crash or timeout prints the output that led to it.
function unfinishedof(prefix,   i, key) {
  for (i = 1; i <= started; i++) {
    key = order[i]
    if ((key in done) || index(key, prefix) != 1) continue
    unfinished++
    if (!verbose) show(buf[key])
    delete buf[key]
    done[key] = 1
  }
}
function lastline(text,   n, lines) {
  n = split(text, lines, "\n")
  while (n > 0 && lines[n] == "") n--
  return n > 0 ? lines[n] "\n" : ""
}
# Plain go test shows no === lines, and of a passing package only its last line.
function show(text,   n, i, lines, kept) {
  if (verbose) { printf "%s", text; return }
  n = split(text, lines, "\n")
  kept = ""
  for (i = 1; i < n; i++) if (lines[i] !~ /^=== (RUN|PAUSE|CONT|NAME)/) kept = kept lines[i] "\n"
  if (lines[n] != "") kept = kept lines[n]
  printf "%s", kept
}
!/^\{/ { print; fflush(); next }
{
  action = field("Action"); pkg = field("Package"); test = field("Test")
  key = pkg " " test
  if (action == "build-output") { printf "%s", decode(field("Output")) }
  else if (action == "output") {
    out = decode(field("Output"))
    if (verbose) printf "%s", out
    else if (test == "") pkgout[pkg] = pkgout[pkg] out
    else { if (!(key in buf)) order[++started] = key; buf[key] = buf[key] out }
  }
  else if (action == "run" && test != "") { if (!(key in buf)) { order[++started] = key; buf[key] = "" } }
  else if (test != "" && (action == "pass" || action == "fail" || action == "skip")) {
    count[action]++
    if (action == "fail" && !verbose) show(buf[key])
    delete buf[key]
    done[key] = 1
  }
  else if (test == "" && (action == "pass" || action == "fail" || action == "skip")) {
    if (action == "fail") failedpkgs++
    unfinishedof(pkg " ")
    if (!verbose) printf "%s", action == "fail" ? pkgout[pkg] : lastline(pkgout[pkg])
    delete pkgout[pkg]
  }
  fflush()
}
END {
  unfinishedof("")
  for (pkg in pkgout) printf "%s", pkgout[pkg]
  if (unfinished) printf "%d test(s) did not finish (their package crashed or timed out): counted as failed\n", unfinished
  if (failedpkgs && !count["fail"] && !unfinished) printf "%d package(s) failed outside any test (a build error, TestMain or a crash)\n", failedpkgs
  printf "tests: %d passed, %d failed, %d skipped\n", count["pass"], count["fail"] + unfinished, count["skip"]
}
'

go test -json "$@" | LC_ALL=C awk -v verbose="$verbose" "$program"
status=("${PIPESTATUS[@]}")
if [[ "${status[1]}" -ne 0 ]]; then
  echo "go-test: reading go test's output failed" >&2
  [[ "${status[0]}" -ne 0 ]] || exit 1
fi
exit "${status[0]}"
