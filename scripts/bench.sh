#!/usr/bin/env bash
# Side-by-side benchmarks of issues 11 and 39, on loopback against the
# emulator. Each target is measured against a floor, the work it must do
# measured in the same run, and each line says what its floor is:
#
#   1a. terraform apply PLANFILE of a new import of a 2 GiB CSV (the plan
#       made beforehand, not timed)   vs  the send: curl -F of the same
#       file with a SHA-256 of it beside (the apply hashes what it sends),
#       plus Terraform's own cost: the same apply of a one-row file
#       (<= 1.15x); over curl alone printed beside
#   1b. terraform apply without a saved plan (its plan reads the file once)
#                                     vs  the same send, plus the plan's own
#       read of the file (hashcount -mode plan), plus the same apply of the
#       one-row file. The limit is the floor plus half the smaller of the
#       send and the read: one more read of the file by the plan, or one
#       more send, crosses it whatever the machine's balance of network
#       and hashing.
#       The emulator stands for a remote service here: it runs on core 0
#       alone, the clients on the others (see pin). 1a with the emulator
#       sharing every core is printed beside.
#   2.  the provider's peak RSS for 2 GiB (<= 64 MiB)  vs  for 20 MiB (flat)
#   3.  terraform plan of 20 unchanged imports of 512 MiB files  vs  the same
#       20 imports of the smallest file the emulator takes (<= 1.3x); the
#       same plan with the hash cache off (ETL_HASH_CACHE=0) printed beside
#   4.  encoding a 25 MB rows body  vs  encoding/json.Marshal (Go benchmark,
#       run once a run, so that the two alternate)
#   5.  apply of 200 etl_import  vs  200 time_static (terraform-provider-time
#       v0.13.1, go install'ed from the module proxy), -parallelism=10
#       (<= 1.15x); 200 terraform_data printed beside
#   6.  terraform plan of 50, 200 and 800 unchanged imports: the cost per
#       resource from 200 to 800  vs  from 50 to 200 (<= 1.3x), in CPU
#       seconds, which a busy machine leaves as they are; wall times, and
#       the costs over the plan of one, printed beside
#   7.  the plan's read of a newly generated 2 GiB CSV, counting its rows
#       and columns as it hashes it (localfile.HashFile with
#       flatfile.RowCounter)              vs  a plain SHA-256 of the same
#       file by Go (<= 1.15x); the same read without the counting, the
#       counting alone, and the CPU seconds of each, printed beside
#       (internal/bench/hashcount)
#   7b. the counting  vs  SHA-256, block by block of the same file in one
#       process (hashcount -mode split, the median of the blocks' ratios)
#       (<= 0.10); the CPU seconds the counting adds to the plan's read
#       (with counts less without) over a SHA-256 pass's printed beside
#
# Every command runs BENCH_RUNS times (default 3); medians are compared. It
# prints one line per target, "target N: ratio X (limit Y) PASS|FAIL", with
# the raw medians, and exits 1 when a line says FAIL. Data is generated
# under .cache/bench (not committed), named for its size; the 20 files of
# target 3 (10 GiB) are removed at the end unless BENCH_KEEP_DATA=1, and
# made smaller (BENCH_T3_SIZE, printed) when the disk has not room for
# them; only the data of the targets asked for is made. Target 7's file is
# made anew in the run's temporary directory, and removed with it.
# Terraform runs with its own XDG_CACHE_HOME, so the provider's disk cache
# of file hashes starts empty and is never the user's.
#
#   BENCH_RUNS=5 BENCH_PARALLELISM=10 scripts/bench.sh
#   BENCH_TARGETS="1 3" scripts/bench.sh     only targets 1 (and 2) and 3
#   BENCH_SHORT=1 scripts/bench.sh           the short form (make bench-check)
#
# The short form is the same targets, limits and floors, one run each, on
# small data: a 512 MiB file for targets 1 and 2, files of 8 MiB for
# target 3, plans of 20, 80 and 320 imports for target 6 (three runs of
# the plans, BENCH_T6_RUNS=3: at these sizes a plan's CPU varies by a
# tenth), a 1 GiB file for target 7 (its read checks the first 64 MiB
# too, a fixed cost); 1a with the emulator sharing every core is left out
# (BENCH_SHARED=0), and a target that says FAIL runs once more, the second
# try deciding (BENCH_RETRY=1). CI runs it (about 90 s on 2 busy cores);
# the sizes can be set one by one (BENCH_BIG_SIZE, BENCH_SMALL_SIZE,
# BENCH_T3_SIZE, BENCH_T6_SIZES, BENCH_T7_SIZE).
set -euo pipefail

# wanted N: whether target N is asked for (BENCH_TARGETS; default all).
wanted() { [[ " ${BENCH_TARGETS:-1 2 3 4 5 6 7} " == *" $1 "* ]]; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
bench="$cache/bench"
if [[ "${BENCH_SHORT:-}" == 1 ]]; then
  : "${BENCH_RUNS:=1}" "${BENCH_BIG_SIZE:=512MiB}" "${BENCH_T3_SIZE:=8MiB}" "${BENCH_T6_SIZES:=20 80 320}" "${BENCH_T7_SIZE:=1GiB}"
  : "${BENCH_SHARED:=0}" "${BENCH_RETRY:=1}" "${BENCH_T6_RUNS:=3}"
fi
runs="${BENCH_RUNS:-3}"
parallelism="${BENCH_PARALLELISM:-10}"
big_size="${BENCH_BIG_SIZE:-2GiB}"
small_size="${BENCH_SMALL_SIZE:-20MiB}"
read -ra t6_sizes <<<"${BENCH_T6_SIZES:-50 200 800}"
t7_size="${BENCH_T7_SIZE:-$big_size}"
big_file="$bench/big-$big_size.csv"
small_file="$bench/small-$small_size.csv"
# The one-row file of Terraform's own cost (targets 1a and 1b).
tiny_file="$bench/tiny.csv"
t3_count=20
time_version=v0.13.1
time_bin=/usr/bin/time

for need in curl sha256sum taskset "$time_bin"; do
  command -v "$need" >/dev/null || { echo "bench: $need is required" >&2; exit 1; }
done

tf="$("$root/scripts/terraform-bin.sh")"
log() { printf '%s\n' "$*" >&2; }
export TF_CLI_CONFIG_FILE="$bench/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset TF_LOG TF_LOG_PROVIDER ETL_HASH_CACHE

# Builds and data first. Then the rest of this script runs as
# `etl-emulator -instant -- scripts/bench.sh --with-emulator`: the emulator
# serves while it runs (ETL_BASE_URL, ETL_TOKEN_ID and ETL_TOKEN_SECRET set;
# its pid is $PPID) and stops with it. -instant: jobs are final at once, so
# the upload is all that is measured.
if [[ "${1:-}" != --with-emulator ]]; then
  mkdir -p "$bench/bin" "$bench/real" "$bench/rss" "$bench/t3tiny" "$bench/t6"
  "$root/scripts/cli-config.sh" "$bench/cli.tfrc" "$bench/bin"
  # terraform-provider-time from the same directory (dev_overrides).
  sed -i "s|^  dev_overrides {\$|&\n    \"registry.terraform.io/hashicorp/time\" = \"$bench/bin\"|" "$bench/cli.tfrc"
  log "bench: $("$tf" version | head -n 1), $(nproc) cores, $runs runs each, parallelism $parallelism"

  (
    cd "$root"
    go build -o "$bench/real/terraform-provider-etl" .
    go build -o "$bench/etl-emulator" ./internal/emulator/cmd/etl-emulator
    go build -o "$bench/gencsv" ./internal/bench/gencsv
    go build -o "$bench/hashcount" ./internal/bench/hashcount
  )
  if wanted 5 && [[ ! -x "$bench/time/terraform-provider-time" ]]; then
    log "bench: go install github.com/hashicorp/terraform-provider-time@$time_version"
    GOBIN="$bench/time" GOFLAGS='' go install "github.com/hashicorp/terraform-provider-time@$time_version"
  fi
  ln -sf "$bench/time/terraform-provider-time" "$bench/bin/terraform-provider-time"

  # The provider, as Terraform runs it (dev_overrides), under /usr/bin/time -v:
  # every provider process of a command appends its peak RSS to $BENCH_RSS_FILE.
  cat >"$bench/bin/terraform-provider-etl" <<EOF
#!/usr/bin/env bash
exec $time_bin -v -a -o "\${BENCH_RSS_FILE:-/dev/null}" "$bench/real/terraform-provider-etl" "\$@"
EOF
  chmod +x "$bench/bin/terraform-provider-etl"

  # Data: generated once, regenerated when the size differs.
  size_bytes() { "$bench/gencsv" -size "$1" -o /dev/null -print-size; }
  gen() {
    local file="$1" size="$2"
    local want; want="$(size_bytes "$size")"
    if [[ ! -f "$file" || "$(stat -c %s "$file")" != "$want" ]]; then
      log "bench: generating $file ($size)"
      "$bench/gencsv" -size "$size" -o "$file"
    fi
  }
  if wanted 1 || wanted 2; then
    gen "$big_file" "$big_size"
    gen "$small_file" "$small_size"
  fi
  [[ -f "$tiny_file" ]] || printf 'Account,Amount\n4000,1\n' >"$tiny_file"

  # Target 3: 20 files of 512 MiB, unless the disk has not room for them
  # (with 2 GiB to spare): then smaller, and the size is printed.
  t3_size="${BENCH_T3_SIZE:-}"
  if [[ -z "$t3_size" ]]; then
    have="$(find "$bench" -path "$bench/t3-*" -name 'f*.csv' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }')"
    avail="$(($(df --output=avail -B1 "$bench" | tail -n 1) + have))"
    mib_each=512
    while ((mib_each > 16 && avail < t3_count * mib_each * 1048576 + 2 * 1073741824)); do mib_each=$((mib_each / 2)); done
    t3_size="${mib_each}MiB"
    ((mib_each == 512)) || log "bench: $((avail >> 30)) GiB free: target 3 scaled down to files of $t3_size (factor $((512 / mib_each)))"
  fi
  t3_dir="$bench/t3-$t3_size"
  if wanted 3; then
    mkdir -p "$t3_dir"
    for i in $(seq 0 $((t3_count - 1))); do gen "$t3_dir/f$i.csv" "$t3_size"; done
  fi
  # Target 3's small side: the smallest file the emulator takes (a header
  # with its required columns: it refuses a 1-byte file).
  for i in $(seq 0 $((t3_count - 1))); do
    [[ -f "$bench/t3tiny/tiny$i.csv" ]] || printf 'Account,Amount\n' >"$bench/t3tiny/tiny$i.csv"
  done
  # Target 6: a small file per import, for the most imports planned.
  t6_max="$(printf '%s\n' "${t6_sizes[@]}" | sort -g | tail -n 1)"
  if [[ ! -f "$bench/t6/f$((t6_max - 1)).csv" ]]; then
    for i in $(seq 0 $((t6_max - 1))); do printf 'Account,Amount\n%d,1\n' "$((4000 + i))" >"$bench/t6/f$i.csv"; done
  fi
  # Let freshly written data reach the disk before anything is timed: state
  # files are written (and synced) by every terraform run. Then wait out the
  # hash cache's racy window (2s), as for any file not written just now.
  sync
  sleep 3

  rc=0
  BENCH_T3_SIZE="$t3_size" "$bench/etl-emulator" -addr 127.0.0.1:0 -instant -- "${BASH_SOURCE[0]}" --with-emulator || rc=$?
  if [[ "${BENCH_KEEP_DATA:-}" != 1 ]]; then
    rm -f "$t3_dir"/f*.csv
  fi
  log "bench: $SECONDS s in all"
  exit "$rc"
fi

emulator_pid=$PPID
t3_dir="$bench/t3-$BENCH_T3_SIZE"
work="$(mktemp -d "${TMPDIR:-/tmp}/etl-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
template=640101874288689152 # GL Actuals (Account, Amount)
# The provider's cache of file hashes (os.UserCacheDir): the bench's own.
# Go's build cache stays where it was (it too follows XDG_CACHE_HOME): the
# Go benchmark of target 4 is built from it, not from nothing.
GOCACHE="$(go env GOCACHE)"
export GOCACHE XDG_CACHE_HOME="$work/xdg"
clear_hash_cache() { rm -rf "$XDG_CACHE_HOME"; }

# shellcheck source=scripts/bench-configs.sh
. "$root/scripts/bench-configs.sh"
write_configs "$work"

# now: nanoseconds. elapsed START: seconds since START, 3 decimals.
now() { date +%s%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
sum() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.3f", s }'; }
verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l) ? "PASS" : "FAIL" }'; }
peak_rss_kib() { awk -F': ' '/Maximum resident set size/ { if ($2 > m) m = $2 } END { print m + 0 }' "$1"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# The upload targets treat the emulator as the remote service it stands
# for: pinned to core 0 alone, with the clients (curl; terraform and the
# provider) on the other cores, so that the SHA-256 the provider must take
# of what it sends does not take CPU from the server, nor the server's from
# it. Both sides are measured the same way. pin on|off; client is the
# prefix of every timed command (empty when not pinned). BENCH_PIN=0, or a
# single core, runs everything unpinned.
client=()
pin() {
  local n; n="$(nproc)"
  if [[ "${BENCH_PIN:-1}" == 0 || "$n" -lt 2 ]]; then return; fi
  if [[ "$1" == on ]]; then
    taskset -a -p -c 0 "$emulator_pid" >/dev/null
    client=(taskset -c "1-$((n - 1))")
  else
    taskset -a -p -c "0-$((n - 1))" "$emulator_pid" >/dev/null
    client=()
  fi
}
pinned() { [[ ${#client[@]} -gt 0 ]]; }

# tf_time DIR RSS_FILE ARGS...: runs terraform in DIR and prints its wall
# time; fails loudly when terraform fails. tf_cpu then prints the CPU
# seconds (user and system) it took, its provider processes' included.
# tf_run: from an empty state.
tf_time() {
  local dir="$1" rss="$2"
  shift 2
  : >"$rss"
  local t0; t0="$(now)"
  if ! BENCH_RSS_FILE="$rss" "${client[@]}" "$time_bin" -f '%U %S' -o "$work/tf.cpu" \
    "$tf" -chdir="$dir" "$1" -input=false -no-color "${@:2}" >"$work/tf.log" 2>&1; then
    echo "bench: terraform $* in $dir failed:" >&2
    tail -n 30 "$work/tf.log" >&2
    exit 1
  fi
  elapsed "$t0"
}
tf_cpu() { awk '{ printf "%.3f", $1 + $2 }' "$work/tf.cpu"; }
tf_run() {
  rm -rf "$1/terraform.tfstate" "$1/terraform.tfstate.backup" "$1/.terraform" "$1/plan.tfplan"
  tf_time "$@"
}

curl_upload() {
  local file="$1" t0 code
  t0="$(now)"
  code="$("${client[@]}" curl -sS -o "$work/curl.out" -w '%{http_code}' -u "$ETL_TOKEN_ID:$ETL_TOKEN_SECRET" \
    -F 'metadata={"input":{"partName":"file","fileFormat":"CSV","fileEncoding":"UTF-8","fileName":"big.csv"}};type=application/json' \
    -F "file=@$file;type=application/octet-stream" \
    "$ETL_BASE_URL/api/public/v1/etl/templates/$template/startWithFile")"
  local t; t="$(elapsed "$t0")"
  if [[ "$code" != 200 ]]; then
    echo "bench: curl upload answered $code: $(cat "$work/curl.out")" >&2
    exit 1
  fi
  echo "$t"
}

# send_floor FILE: prints the time curl_upload of FILE takes with a SHA-256
# of FILE (hashcount) running beside it on the same cores: what an apply's
# send must do at the least, since it hashes what it sends; on a busy
# machine the two take their CPU from the same cores as the apply would.
send_floor() {
  local t0 pid
  t0="$(now)"
  "${client[@]}" "$bench/hashcount" -mode sha256 "$1" >"$work/send.sha" &
  pid=$!
  curl_upload "$1" >/dev/null
  if ! wait "$pid"; then
    echo "bench: hashcount -mode sha256 $1 failed" >&2
    exit 1
  fi
  elapsed "$t0"
}

# Warm-up: the page cache holds the files, both sides measured warm.
for f in "$big_file" "$small_file"; do
  if [[ -f "$f" ]]; then cat "$f" >/dev/null; fi
done
tf_run "$work/empty" "$work/rss.warm" plan >/dev/null

results=()
# shellcheck source=scripts/bench-targets.sh
. "$root/scripts/bench-targets.sh"
# measure FUNCTION: runs a target's function, logging how long it took;
# with BENCH_RETRY=1 (the short form), a target that says FAIL runs once
# more, both lines are printed, and the second decides: one run on a busy
# machine may be unlucky, a regression fails twice.
measure() {
  local start=$SECONDS before=${#results[@]}
  "$1"
  log "bench: $1 took $((SECONDS - start)) s"
  if [[ "${BENCH_RETRY:-0}" == 1 ]] && printf '%s\n' "${results[@]:before}" | grep -q ') FAIL '; then
    local first=("${results[@]:before}")
    results=("${results[@]:0:before}")
    log "bench: $1 said FAIL: once more"
    "$1"
    local k
    for k in "${!first[@]}"; do first[k]="${first[k]/#target /(first try) target }"; done
    results+=("${first[@]}")
  fi
}
if wanted 1 || wanted 2; then measure target_upload; fi # 1a, 1b, 2
if wanted 3; then measure target_plan_big; fi
if wanted 4; then measure target_rows; fi
if wanted 5; then measure target_many; fi
if wanted 6; then measure target_growth; fi
if wanted 7; then measure target_hashcount; fi

emu_rss="$(awk '/VmHWM/ { print $2 }' "/proc/$emulator_pid/status" 2>/dev/null || echo 0)"
echo
printf '%s\n' "${results[@]}"
echo "($(nproc) cores, load $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?'); emulator peak RSS $(mib "${emu_rss:-0}") MiB)"
failed="$(printf '%s\n' "${results[@]}" | grep -c '^target [0-9a-z]*: ratio [^ ]* (limit [0-9.]*) FAIL' || true)"
if ((failed > 0)); then
  echo "bench: $failed target(s) FAIL"
  exit 1
fi
