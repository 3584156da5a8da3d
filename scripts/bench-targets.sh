# shellcheck shell=bash disable=SC2154 # work runs root bench template parallelism time_version: set by scripts/bench.sh
# Sourced by scripts/bench.sh (with the emulator running): one function per
# target, each appending its "target N:" line(s) to results. Helpers (tf_run,
# tf_time, curl_upload, median, ratio, verdict, ...) come from bench.sh.

# apply_planfile DIR: plans a new import in DIR (not timed), then prints the
# time of `terraform apply PLANFILE`.
apply_planfile() {
  clear_hash_cache
  tf_run "$1" "$work/rss.plan" plan -out=plan.tfplan >/dev/null
  tf_time "$1" "$work/rss.apply" apply plan.tfplan
}

# Targets 1a, 1b and 2: a new import of the 2 GiB file, with and without a
# saved plan, beside curl; the provider's peak RSS for 2 GiB and 20 MiB.
target_upload() {
  local i planned=() unplanned=() curls=() rss_big=() rss_small=() shared=() shared_curls=()
  local dir="$work/file"
  for i in $(seq 1 "$runs"); do
    pin on
    # Alternate which side goes first.
    if ((i % 2 == 0)); then curls+=("$(curl_upload "$bench/big.csv")"); fi
    # 1a: the plan is made beforehand (and records the file's hash in the
    # disk cache), then only the apply is timed.
    planned+=("$(apply_planfile "$dir")")
    # 1b: from nothing: the plan reads the file, the apply sends it.
    clear_hash_cache
    unplanned+=("$(tf_run "$dir" "$bench/rss/big.$i" apply -auto-approve)")
    if ((i % 2)); then curls+=("$(curl_upload "$bench/big.csv")"); fi
    # 1a again with the emulator sharing every core with the client: printed.
    if pinned; then
      pin off
      shared_curls+=("$(curl_upload "$bench/big.csv")")
      shared+=("$(apply_planfile "$dir")")
    fi
    rss_big+=("$(peak_rss_kib "$bench/rss/big.$i")")
    tf_run "$work/small" "$bench/rss/small.$i" apply -auto-approve >/dev/null
    rss_small+=("$(peak_rss_kib "$bench/rss/small.$i")")
    local also=""
    if [[ ${#shared[@]} -gt 0 ]]; then also="; sharing every core: apply PLANFILE ${shared[-1]}s, curl ${shared_curls[-1]}s"; fi
    log "bench: run $i: apply PLANFILE 2 GiB ${planned[-1]}s, apply 2 GiB ${unplanned[-1]}s (peak RSS $(mib "${rss_big[-1]}") MiB), curl ${curls[-1]}s, apply 20 MiB peak RSS $(mib "${rss_small[-1]}") MiB$also"
  done
  local m_planned m_unplanned m_curl r1a r1b rate
  m_planned="$(median "${planned[@]}")" m_unplanned="$(median "${unplanned[@]}")" m_curl="$(median "${curls[@]}")"
  r1a="$(ratio "$m_planned" "$m_curl")" r1b="$(ratio "$m_unplanned" "$m_curl")"
  rate="$(awk -v s="$m_curl" -v b="$(stat -c %s "$bench/big.csv")" 'BEGIN { printf "curl %.0f MB/s", b / s / 1e6 }')"
  local where="emulator on core 0, clients on the others"
  if [[ ${#shared[@]} -gt 0 ]]; then
    local m_shared m_shared_curl
    m_shared="$(median "${shared[@]}")" m_shared_curl="$(median "${shared_curls[@]}")"
    where+="; sharing every core: ratio $(ratio "$m_shared" "$m_shared_curl"), ${m_shared}s, curl ${m_shared_curl}s"
  else
    where="unpinned"
  fi
  results+=("target 1a: ratio $r1a (limit 1.15) $(verdict "$r1a" 1.15)  apply PLANFILE 2 GiB ${m_planned}s, curl ${m_curl}s (medians of $runs; $rate; $where)")
  results+=("target 1b: ratio $r1b (limit 1.50) $(verdict "$r1b" 1.50)  apply 2 GiB without a saved plan ${m_unplanned}s, curl ${m_curl}s (medians of $runs)")

  local m_rss_big m_rss_small r2 v2
  m_rss_big="$(median "${rss_big[@]}")" m_rss_small="$(median "${rss_small[@]}")"
  r2="$(ratio "$m_rss_big" "$m_rss_small")"
  v2="$(verdict "$r2" 1.10)"
  if (($(awk -v k="$m_rss_big" 'BEGIN { print (k > 64 * 1024) }'))); then v2=FAIL; fi
  results+=("target 2: ratio $r2 (limit 1.10) $v2  provider peak RSS 2 GiB $(mib "$m_rss_big") MiB (limit 64 MiB), 20 MiB $(mib "$m_rss_small") MiB (medians of $runs)")
}

# Target 3: plans of 20 unchanged imports of large files beside the same
# imports of tiny files; the large ones again with the hash cache off.
target_plan_big() {
  local i big=() tiny=() off=()
  log "bench: target 3: applying 20 imports of $BENCH_T3_SIZE and 20 of $(stat -c %s "$bench/t3/tiny0.csv") bytes"
  tf_run "$work/t3big" "$work/rss.t3" apply -auto-approve >/dev/null
  tf_run "$work/t3tiny" "$work/rss.t3" apply -auto-approve >/dev/null
  for i in $(seq 1 "$runs"); do
    big+=("$(tf_time "$work/t3big" "$work/rss.t3" plan -detailed-exitcode)")
    tiny+=("$(tf_time "$work/t3tiny" "$work/rss.t3" plan -detailed-exitcode)")
    off+=("$(ETL_HASH_CACHE=0 tf_time "$work/t3big" "$work/rss.t3" plan -detailed-exitcode)")
    log "bench: run $i: plan 20 x $BENCH_T3_SIZE ${big[-1]}s, 20 tiny ${tiny[-1]}s, 20 x $BENCH_T3_SIZE with the cache off ${off[-1]}s"
  done
  local m_big m_tiny m_off r3 r_off
  m_big="$(median "${big[@]}")" m_tiny="$(median "${tiny[@]}")" m_off="$(median "${off[@]}")"
  r3="$(ratio "$m_big" "$m_tiny")" r_off="$(ratio "$m_off" "$m_tiny")"
  results+=("target 3: ratio $r3 (limit 1.30) $(verdict "$r3" 1.30)  plan of 20 unchanged imports of $BENCH_T3_SIZE ${m_big}s, of 20 tiny files ${m_tiny}s; hash cache off: ratio $r_off, ${m_off}s")
}

# Target 4: rows encoding (Go benchmark).
target_rows() {
  log "bench: go test -bench BenchmarkRowsEncode25MB"
  local out4
  out4="$(cd "$root" && go test ./internal/etl -run '^$' -bench 'BenchmarkRowsEncode25MB' -benchmem -count="$runs")"
  printf '%s\n' "$out4" | grep '^Benchmark' >&2
  # Medians of ns/op, and the peak bytes and body size, per sub-benchmark.
  field() { printf '%s\n' "$out4" | awk -v name="BenchmarkRowsEncode25MB/$1-" -v unit="$2" 'index($1, name) == 1 { for (i = 2; i < NF; i++) if ($(i + 1) == unit) print $i }'; }
  # shellcheck disable=SC2046 # one value per line, split on purpose
  med_of() { median $(field "$1" "$2"); }
  local t_marshal t_body t_csv p_body p_csv body_b t_worst p_worst r4 m4 v4
  t_marshal="$(med_of json.Marshal ns/op)" t_body="$(med_of body ns/op)" t_csv="$(med_of csv ns/op)"
  p_body="$(med_of body peak-B)" p_csv="$(med_of csv peak-B)" body_b="$(med_of body body-B)"
  t_worst="$(awk -v a="$t_body" -v b="$t_csv" 'BEGIN { print (a > b) ? a : b }')"
  p_worst="$(awk -v a="$p_body" -v b="$p_csv" 'BEGIN { print (a > b) ? a : b }')"
  r4="$(ratio "$t_worst" "$t_marshal")" m4="$(ratio "$p_worst" "$body_b")"
  v4="$(verdict "$r4" 2)"
  if [[ "$(verdict "$m4" 3)" == FAIL ]]; then v4=FAIL; fi
  results+=("target 4: ratio $r4 (limit 2.00) $v4  encode 25 MB: JSON body $(awk -v n="$t_body" 'BEGIN { printf "%.1f", n / 1e6 }') ms, CSV $(awk -v n="$t_csv" 'BEGIN { printf "%.1f", n / 1e6 }') ms, json.Marshal $(awk -v n="$t_marshal" 'BEGIN { printf "%.1f", n / 1e6 }') ms; peak memory ratio $m4 (limit 3.00): JSON body $(mib $((${p_body%.*} / 1024))) MiB, CSV $(mib $((${p_csv%.*} / 1024))) MiB for a $(mib $((${body_b%.*} / 1024))) MiB body")
}

# Target 5: 200 imports beside 200 time_static (a framework provider doing
# no I/O: Terraform's floor for an out-of-process provider), and beside 200
# terraform_data (built into Terraform).
target_many() {
  local i many=() times=() data=()
  for i in $(seq 1 "$runs"); do
    many+=("$(tf_run "$work/many" "$work/rss.many" apply -auto-approve -parallelism="$parallelism")")
    times+=("$(tf_run "$work/time" "$work/rss.many" apply -auto-approve -parallelism="$parallelism")")
    data+=("$(tf_run "$work/data" "$work/rss.many" apply -auto-approve -parallelism="$parallelism")")
    log "bench: run $i: 200 etl_import ${many[-1]}s, 200 time_static ${times[-1]}s, 200 terraform_data ${data[-1]}s"
  done
  local m_many m_time m_data r5
  m_many="$(median "${many[@]}")" m_time="$(median "${times[@]}")" m_data="$(median "${data[@]}")"
  r5="$(ratio "$m_many" "$m_time")"
  results+=("target 5: ratio $r5 (limit 1.15) $(verdict "$r5" 1.15)  200 etl_import ${m_many}s, 200 time_static ${m_time}s (terraform-provider-time $time_version), 200 terraform_data ${m_data}s (-parallelism=$parallelism)")
}

# Target 6: plans of 50, 200 and 800 unchanged imports. The cost per
# resource is what a plan costs over the plan of one unchanged import
# (Terraform and the provider starting), divided by the resources added.
target_growth() {
  local n i t1=() t50=() t200=() t800=()
  for n in 1 50 200 800; do
    log "bench: target 6: applying $n imports"
    tf_run "$work/t6_$n" "$work/rss.t6" apply -auto-approve -parallelism="$parallelism" >/dev/null
  done
  for i in $(seq 1 "$runs"); do
    t1+=("$(tf_time "$work/t6_1" "$work/rss.t6" plan -detailed-exitcode -parallelism="$parallelism")")
    t50+=("$(tf_time "$work/t6_50" "$work/rss.t6" plan -detailed-exitcode -parallelism="$parallelism")")
    t200+=("$(tf_time "$work/t6_200" "$work/rss.t6" plan -detailed-exitcode -parallelism="$parallelism")")
    t800+=("$(tf_time "$work/t6_800" "$work/rss.t6" plan -detailed-exitcode -parallelism="$parallelism")")
    log "bench: run $i: plan of 1 import ${t1[-1]}s, of 50 ${t50[-1]}s, 200 ${t200[-1]}s, 800 ${t800[-1]}s"
  done
  local m1 m50 m200 m800 c50 c200 c800 lo hi r6
  m1="$(median "${t1[@]}")" m50="$(median "${t50[@]}")" m200="$(median "${t200[@]}")" m800="$(median "${t800[@]}")"
  per() { awk -v t="$1" -v z="$m1" -v n="$2" 'BEGIN { printf "%.2f", (t - z) / (n - 1) * 1000 }'; }
  c50="$(per "$m50" 50)" c200="$(per "$m200" 200)" c800="$(per "$m800" 800)"
  lo="$(printf '%s\n' "$c50" "$c200" "$c800" | sort -g | head -n 1)"
  hi="$(printf '%s\n' "$c50" "$c200" "$c800" | sort -g | tail -n 1)"
  r6="$(ratio "$hi" "$lo")"
  results+=("target 6: ratio $r6 (limit 1.30) $(verdict "$r6" 1.30)  plan of unchanged imports, ms per resource over the plan of one (${m1}s): 50 ${c50} (${m50}s), 200 ${c200} (${m200}s), 800 ${c800} (${m800}s)")
}

# Target 7: the plan's read of a newly generated 2 GiB CSV with its counts
# (hash, check of the head and counting in one read: localfile.HashFile with
# etl.RowCounter, as the provider's plan reads a file) beside a plain SHA-256
# of the same file by Go (io.Copy into crypto/sha256); printed beside: the
# plan's read without the counting, the counting alone, and the CPU times
# (user + system). The two compared run back to back, in an order that
# alternates from run to run, and the ratio is the median of the runs'
# ratios (pairing keeps it meaningful when the machine's speed drifts); the
# ratio of the medians is printed beside. The file is made in the run's
# temporary directory, read once before timing (the page cache holds it, as
# for the other targets), and removed at the end.
target_hashcount() {
  local file="$work/t7.csv" i lines size pairs=()
  local -A wall=() cpu=()
  log "bench: target 7: generating $file ($big_size)"
  "$bench/gencsv" -size "$big_size" -o "$file"
  lines="$(wc -l <"$file")" size="$(stat -c %s "$file")"
  # hc MODE: runs hashcount and prints its wall and CPU seconds; the counts
  # it prints must be the file's (one header line, then rows).
  hc() {
    local t0 t
    t0="$(now)"
    "$time_bin" -f '%U %S' -o "$work/t7.time" "$bench/hashcount" -mode "$1" "$file" >"$work/t7.out"
    t="$(elapsed "$t0")"
    if [[ "$1" == plan || "$1" == count ]] && ! grep -q "rows $((lines - 1)) columns \[\"Account\" \"Entity\" \"Amount\" \"Memo\"\] size $size\$" "$work/t7.out"; then
      echo "bench: hashcount -mode $1 counted wrong: $(cat "$work/t7.out") (want $((lines - 1)) rows)" >&2
      exit 1
    fi
    echo "$t $(awk '{ printf "%.3f", $1 + $2 }' "$work/t7.time")"
  }
  # run MODE: hc MODE, its figures appended to wall[MODE] and cpu[MODE].
  run() {
    local w c
    read -r w c <<<"$(hc "$1")"
    wall[$1]+="$w " cpu[$1]+="$c "
  }
  hc sha256 >/dev/null # warm-up, not timed
  for i in $(seq 1 "$runs"); do
    if ((i % 2)); then run sha256; run plan; else run plan; run sha256; fi
    local -a ws wp
    read -ra ws <<<"${wall[sha256]}"
    read -ra wp <<<"${wall[plan]}"
    pairs+=("$(ratio "${wp[-1]}" "${ws[-1]}")")
    run hash
    run count
    log "bench: run $i: plan's read with counts ${wp[-1]}s, plain SHA-256 ${ws[-1]}s (ratio ${pairs[-1]}), without counts $(awk '{ print $NF }' <<<"${wall[hash]}")s, counting alone $(awk '{ print $NF }' <<<"${wall[count]}")s"
  done
  rm -f "$file"
  # med KIND MODE: the median of wall or cpu figures of MODE.
  med() {
    local -n arr="$1"
    # shellcheck disable=SC2086 # one figure a word
    median ${arr[$2]}
  }
  local r7 m_sha m_plan m_hash m_count c_sha c_plan c_hash c_count rate
  r7="$(median "${pairs[@]}")"
  m_sha="$(med wall sha256)" m_plan="$(med wall plan)" m_hash="$(med wall hash)" m_count="$(med wall count)"
  c_sha="$(med cpu sha256)" c_plan="$(med cpu plan)" c_hash="$(med cpu hash)" c_count="$(med cpu count)"
  rate="$(awk -v s="$m_count" -v b="$size" 'BEGIN { printf "%.0f", b / s / 1e6 }')"
  results+=("target 7: ratio $r7 (limit 1.15) $(verdict "$r7" 1.15)  plan's read of $big_size with counts ${m_plan}s, plain SHA-256 by Go ${m_sha}s (ratio of the medians $(ratio "$m_plan" "$m_sha")); without the counting ${m_hash}s (ratio $(ratio "$m_plan" "$m_hash")); counting alone ${m_count}s (about $rate MB/s); CPU seconds: with counts $c_plan, SHA-256 $c_sha, without counts $c_hash, counting alone $c_count; $((lines - 1)) rows (medians of $runs, unpinned)")
}
