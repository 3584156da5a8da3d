#!/usr/bin/env bash
# Side-by-side benchmarks of issue 5, on loopback against the emulator:
#
#   1. apply of one etl_import with a 2 GiB CSV  vs  curl -F of the same file
#   2. the provider's peak RSS for 2 GiB (<= 64 MiB) and 20 MiB (flat)
#   3. terraform plan of that config  vs  sha256sum of the file + an empty plan
#   4. encoding a 25 MB rows body  vs  encoding/json.Marshal (Go benchmark)
#   5. apply of 200 etl_import  vs  200 terraform_data, same -parallelism
#
# Every command runs BENCH_RUNS times (default 3); medians are compared. It
# prints one line per target, "target N: ratio X (limit Y) PASS|FAIL", with
# the raw medians. Data is generated under .cache/bench (not committed).
#
#   BENCH_RUNS=5 BENCH_PARALLELISM=10 scripts/bench.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
bench="$cache/bench"
runs="${BENCH_RUNS:-3}"
parallelism="${BENCH_PARALLELISM:-10}"
big_size="${BENCH_BIG_SIZE:-2GiB}"
small_size="${BENCH_SMALL_SIZE:-20MiB}"
time_bin=/usr/bin/time

for need in curl sha256sum "$time_bin"; do
  command -v "$need" >/dev/null || { echo "bench: $need is required" >&2; exit 1; }
done

tf="$("$root/scripts/terraform-bin.sh")"
log() { printf '%s\n' "$*" >&2; }
export TF_CLI_CONFIG_FILE="$bench/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset TF_LOG TF_LOG_PROVIDER

# Builds and data first. Then the rest of this script runs as
# `etl-emulator -instant -- scripts/bench.sh --with-emulator`: the emulator
# serves while it runs (ETL_BASE_URL, ETL_TOKEN_ID and ETL_TOKEN_SECRET set;
# its pid is $PPID) and stops with it. -instant: jobs are final at once, so
# the upload is all that is measured.
if [[ "${1:-}" != --with-emulator ]]; then
  mkdir -p "$bench/bin" "$bench/real" "$bench/rss"
  "$root/scripts/cli-config.sh" "$bench/cli.tfrc" "$bench/bin"
  log "bench: $("$tf" version | head -n 1), $(nproc) cores, $runs runs each, parallelism $parallelism"

  (
    cd "$root"
    go build -o "$bench/real/terraform-provider-etl" .
    go build -o "$bench/etl-emulator" ./internal/emulator/cmd/etl-emulator
    go build -o "$bench/gencsv" ./internal/bench/gencsv
  )

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
  gen "$bench/big.csv" "$big_size"
  gen "$bench/small.csv" "$small_size"
  # Let freshly written data reach the disk before anything is timed: state
  # files are written (and synced) by every terraform run.
  sync

  exec "$bench/etl-emulator" -addr 127.0.0.1:0 -instant -- "${BASH_SOURCE[0]}" --with-emulator
fi

emulator_pid=$PPID
work="$(mktemp -d "${TMPDIR:-/tmp}/etl-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT
template=640101874288689152 # GL Actuals (Account, Amount)

# Configurations.
mkdir -p "$work/file" "$work/small" "$work/empty" "$work/many" "$work/data"
provider_block='terraform {
  required_providers {
    etl = { source = "etl-provider/etl" }
  }
}
provider "etl" {}'
file_config() {
  printf '%s\nresource "etl_import" "bench" {\n  template_id = "%s"\n  file = { path = "%s" }\n}\n' "$provider_block" "$template" "$1"
}
file_config "$bench/big.csv" >"$work/file/main.tf"
file_config "$bench/small.csv" >"$work/small/main.tf"
# The same configuration without the file: rows of one cell.
printf '%s\nresource "etl_import" "bench" {\n  template_id = "%s"\n  rows = [["Account"]]\n}\n' "$provider_block" "$template" >"$work/empty/main.tf"
printf '%s\nresource "etl_import" "many" {\n  count       = 200\n  template_id = "%s"\n  rows        = [["Account", "Amount"], [tostring(4000 + count.index), "1"]]\n}\n' \
  "$provider_block" "$template" >"$work/many/main.tf"
printf 'resource "terraform_data" "many" {\n  count = 200\n  input = [["Account", "Amount"], [tostring(4000 + count.index), "1"]]\n}\n' >"$work/data/main.tf"

# now: nanoseconds. elapsed START: seconds since START, 3 decimals.
now() { date +%s%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l) ? "PASS" : "FAIL" }'; }
peak_rss_kib() { awk -F': ' '/Maximum resident set size/ { if ($2 > m) m = $2 } END { print m + 0 }' "$1"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# tf_run DIR RSS_FILE ARGS...: runs terraform in DIR from an empty state and
# prints its wall time; fails loudly when terraform fails.
tf_run() {
  local dir="$1" rss="$2"
  shift 2
  rm -rf "$dir/terraform.tfstate" "$dir/terraform.tfstate.backup" "$dir/.terraform"
  : >"$rss"
  local t0; t0="$(now)"
  if ! BENCH_RSS_FILE="$rss" "$tf" -chdir="$dir" "$@" -input=false -no-color >"$work/tf.log" 2>&1; then
    echo "bench: terraform $* in $dir failed:" >&2
    tail -n 30 "$work/tf.log" >&2
    exit 1
  fi
  elapsed "$t0"
}

curl_upload() {
  local file="$1" t0 code
  t0="$(now)"
  code="$(curl -sS -o "$work/curl.out" -w '%{http_code}' -u "$ETL_TOKEN_ID:$ETL_TOKEN_SECRET" \
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

# Warm-up: the page cache holds the files, both sides measured warm.
cat "$bench/big.csv" "$bench/small.csv" >/dev/null
tf_run "$work/empty" "$work/rss.warm" plan >/dev/null

results=()

# ---- targets 1 and 2: upload of the 2 GiB file, and peak RSS -------------
apply_big=() curl_big=() rss_big=() rss_small=()
for i in $(seq 1 "$runs"); do
  # Alternate which side goes first.
  if ((i % 2)); then
    apply_big+=("$(tf_run "$work/file" "$bench/rss/big.$i" apply -auto-approve)")
    curl_big+=("$(curl_upload "$bench/big.csv")")
  else
    curl_big+=("$(curl_upload "$bench/big.csv")")
    apply_big+=("$(tf_run "$work/file" "$bench/rss/big.$i" apply -auto-approve)")
  fi
  rss_big+=("$(peak_rss_kib "$bench/rss/big.$i")")
  tf_run "$work/small" "$bench/rss/small.$i" apply -auto-approve >/dev/null
  rss_small+=("$(peak_rss_kib "$bench/rss/small.$i")")
  log "bench: run $i: apply 2 GiB ${apply_big[-1]}s (peak RSS $(mib "${rss_big[-1]}") MiB), curl ${curl_big[-1]}s, apply 20 MiB peak RSS $(mib "${rss_small[-1]}") MiB"
done
m_apply="$(median "${apply_big[@]}")" m_curl="$(median "${curl_big[@]}")"
r1="$(ratio "$m_apply" "$m_curl")"
results+=("target 1: ratio $r1 (limit 1.10) $(verdict "$r1" 1.10)  apply 2 GiB ${m_apply}s, curl ${m_curl}s (medians of $runs; $(awk -v s="$m_curl" -v b="$(stat -c %s "$bench/big.csv")" 'BEGIN { printf "curl %.0f MB/s", b / s / 1e6 }'))")

m_rss_big="$(median "${rss_big[@]}")" m_rss_small="$(median "${rss_small[@]}")"
r2="$(ratio "$m_rss_big" "$m_rss_small")"
v2="$(verdict "$r2" 1.10)"
if (($(awk -v k="$m_rss_big" 'BEGIN { print (k > 64 * 1024) }'))); then v2=FAIL; fi
results+=("target 2: ratio $r2 (limit 1.10) $v2  provider peak RSS 2 GiB $(mib "$m_rss_big") MiB (limit 64 MiB), 20 MiB $(mib "$m_rss_small") MiB (medians of $runs)")

# ---- target 3: plan-time hashing ----------------------------------------
plan_file=() sha=() plan_empty=()
for i in $(seq 1 "$runs"); do
  plan_file+=("$(tf_run "$work/file" "$work/rss.plan" plan)")
  t0="$(now)"
  sha256sum "$bench/big.csv" >/dev/null
  sha+=("$(elapsed "$t0")")
  plan_empty+=("$(tf_run "$work/empty" "$work/rss.plan" plan)")
done
m_plan="$(median "${plan_file[@]}")" m_sha="$(median "${sha[@]}")" m_empty="$(median "${plan_empty[@]}")"
base3="$(awk -v a="$m_sha" -v b="$m_empty" 'BEGIN { printf "%.3f", a + b }')"
r3="$(ratio "$m_plan" "$base3")"
results+=("target 3: ratio $r3 (limit 1.10) $(verdict "$r3" 1.10)  plan 2 GiB ${m_plan}s, sha256sum ${m_sha}s + empty plan ${m_empty}s = ${base3}s")

# ---- target 4: rows encoding (Go benchmark) ------------------------------
log "bench: go test -bench BenchmarkRowsEncode25MB"
out4="$(cd "$root" && go test ./internal/etl -run '^$' -bench 'BenchmarkRowsEncode25MB' -benchmem -count="$runs")"
printf '%s\n' "$out4" | grep '^Benchmark' >&2
# Medians of ns/op, and the peak bytes and body size, per sub-benchmark.
field() { printf '%s\n' "$out4" | awk -v name="BenchmarkRowsEncode25MB/$1-" -v unit="$2" 'index($1, name) == 1 { for (i = 2; i < NF; i++) if ($(i + 1) == unit) print $i }'; }
med_of() { median $(field "$1" "$2"); }
t_marshal="$(med_of json.Marshal ns/op)" t_body="$(med_of body ns/op)" t_csv="$(med_of csv ns/op)"
p_body="$(med_of body peak-B)" p_csv="$(med_of csv peak-B)" body_b="$(med_of body body-B)"
t_worst="$(awk -v a="$t_body" -v b="$t_csv" 'BEGIN { print (a > b) ? a : b }')"
p_worst="$(awk -v a="$p_body" -v b="$p_csv" 'BEGIN { print (a > b) ? a : b }')"
r4="$(ratio "$t_worst" "$t_marshal")" m4="$(ratio "$p_worst" "$body_b")"
v4="$(verdict "$r4" 2)"
if [[ "$(verdict "$m4" 3)" == FAIL ]]; then v4=FAIL; fi
results+=("target 4: ratio $r4 (limit 2.00) $v4  encode 25 MB: JSON body $(awk -v n="$t_body" 'BEGIN { printf "%.1f", n / 1e6 }') ms, CSV $(awk -v n="$t_csv" 'BEGIN { printf "%.1f", n / 1e6 }') ms, json.Marshal $(awk -v n="$t_marshal" 'BEGIN { printf "%.1f", n / 1e6 }') ms; peak memory ratio $m4 (limit 3.00): JSON body $(mib $((${p_body%.*} / 1024))) MiB, CSV $(mib $((${p_csv%.*} / 1024))) MiB for a $(mib $((${body_b%.*} / 1024))) MiB body")

# ---- target 5: many imports ----------------------------------------------
many=() data=()
for i in $(seq 1 "$runs"); do
  many+=("$(tf_run "$work/many" "$work/rss.many" apply -auto-approve -parallelism="$parallelism")")
  data+=("$(tf_run "$work/data" "$work/rss.data" apply -auto-approve -parallelism="$parallelism")")
  log "bench: run $i: 200 etl_import ${many[-1]}s, 200 terraform_data ${data[-1]}s"
done
m_many="$(median "${many[@]}")" m_data="$(median "${data[@]}")"
r5="$(ratio "$m_many" "$m_data")"
results+=("target 5: ratio $r5 (limit 1.50) $(verdict "$r5" 1.50)  200 etl_import ${m_many}s, 200 terraform_data ${m_data}s (-parallelism=$parallelism)")

emu_rss="$(awk '/VmHWM/ { print $2 }' "/proc/$emulator_pid/status" 2>/dev/null || echo 0)"
echo
printf '%s\n' "${results[@]}"
echo "($(nproc) cores; emulator peak RSS $(mib "${emu_rss:-0}") MiB)"
