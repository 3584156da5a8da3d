# shellcheck shell=bash disable=SC2154 # work runs root bench template parallelism time_version big_file small_file big_size small_size t6_sizes t7_size: set by scripts/bench.sh
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

# plan_read FILE: prints the time the plan's own read of FILE takes
# (hashcount -mode plan: hash, check of the head and counts, as the
# provider's plan reads a new file), on the clients' cores.
plan_read() {
  local t0 t
  t0="$(now)"
  if ! "${client[@]}" "$bench/hashcount" -mode plan "$1" >"$work/read.out" 2>&1; then
    echo "bench: hashcount -mode plan $1 failed: $(cat "$work/read.out")" >&2
    exit 1
  fi
  elapsed "$t0"
}

# Targets 1a, 1b and 2: a new import of the big file, with and without a
# saved plan, beside their floors, measured in the same runs: the send
# (curl -F of the same file with a SHA-256 of it beside, send_floor); the
# plan's own read of it (1b); Terraform's own cost, the same applies of a
# one-row file. Curl alone is printed beside. The provider's peak RSS for
# the big and the small file.
target_upload() {
  local i planned=() unplanned=() curls=() sends=() reads=() tiny_planned=() tiny_unplanned=()
  local rss_big=() rss_small=() shared=() shared_curls=()
  local dir="$work/file"
  local where="unpinned"
  for i in $(seq 1 "$runs"); do
    pin on
    if pinned; then where="emulator on core 0, clients on the others"; fi
    # Alternate which side goes first.
    if ((i % 2 == 0)); then curls+=("$(curl_upload "$big_file")"); fi
    # 1a: the plan is made beforehand (and records the file's hash in the
    # disk cache), then only the apply is timed.
    planned+=("$(apply_planfile "$dir")")
    tiny_planned+=("$(apply_planfile "$work/tinyfile")")
    # 1b: from nothing: the plan reads the file, the apply sends it.
    clear_hash_cache
    unplanned+=("$(tf_run "$dir" "$bench/rss/big.$i" apply -auto-approve)")
    tiny_unplanned+=("$(tf_run "$work/tinyfile" "$work/rss.tiny" apply -auto-approve)")
    reads+=("$(plan_read "$big_file")")
    sends+=("$(send_floor "$big_file")")
    if ((i % 2)); then curls+=("$(curl_upload "$big_file")"); fi
    # 1a again with the emulator sharing every core with the client: printed.
    if pinned && [[ "${BENCH_SHARED:-1}" == 1 ]]; then
      pin off
      shared_curls+=("$(curl_upload "$big_file")")
      shared+=("$(apply_planfile "$dir")")
    fi
    rss_big+=("$(peak_rss_kib "$bench/rss/big.$i")")
    tf_run "$work/small" "$bench/rss/small.$i" apply -auto-approve >/dev/null
    rss_small+=("$(peak_rss_kib "$bench/rss/small.$i")")
    local also=""
    if [[ ${#shared[@]} -gt 0 ]]; then also="; sharing every core: apply PLANFILE ${shared[-1]}s, curl ${shared_curls[-1]}s"; fi
    log "bench: run $i: apply PLANFILE $big_size ${planned[-1]}s, apply $big_size ${unplanned[-1]}s (peak RSS $(mib "${rss_big[-1]}") MiB), curl ${curls[-1]}s, curl with SHA-256 beside ${sends[-1]}s, the plan's read ${reads[-1]}s, one-row file: apply PLANFILE ${tiny_planned[-1]}s, apply ${tiny_unplanned[-1]}s; apply $small_size peak RSS $(mib "${rss_small[-1]}") MiB$also"
  done
  local m_planned m_unplanned m_curl m_send m_read m_tp m_tu
  m_planned="$(median "${planned[@]}")" m_unplanned="$(median "${unplanned[@]}")" m_curl="$(median "${curls[@]}")"
  m_send="$(median "${sends[@]}")" m_read="$(median "${reads[@]}")"
  m_tp="$(median "${tiny_planned[@]}")" m_tu="$(median "${tiny_unplanned[@]}")"
  local f1a f1b l1b r1a r1b rate
  f1a="$(sum "$m_send" "$m_tp")" f1b="$(sum "$m_send" "$m_read" "$m_tu")"
  # 1b's limit: the floor plus half the smaller of the send and the read.
  l1b="$(awk -v f="$f1b" -v c="$m_send" -v r="$m_read" 'BEGIN { printf "%.2f", (f + 0.5 * (c < r ? c : r)) / f }')"
  r1a="$(ratio "$m_planned" "$f1a")" r1b="$(ratio "$m_unplanned" "$f1b")"
  rate="$(awk -v s="$m_curl" -v b="$(stat -c %s "$big_file")" 'BEGIN { printf "curl %.0f MB/s", b / s / 1e6 }')"
  if [[ ${#shared[@]} -gt 0 ]]; then
    local m_shared m_shared_curl
    m_shared="$(median "${shared[@]}")" m_shared_curl="$(median "${shared_curls[@]}")"
    where+="; sharing every core: apply PLANFILE over curl $(ratio "$m_shared" "$m_shared_curl"), ${m_shared}s, curl ${m_shared_curl}s"
  fi
  results+=("target 1a: ratio $r1a (limit 1.15) $(verdict "$r1a" 1.15)  apply PLANFILE $big_size ${m_planned}s; floor ${f1a}s = the send ${m_send}s (curl with a SHA-256 beside) + the same apply of a one-row file ${m_tp}s (curl alone ${m_curl}s, over curl alone $(ratio "$m_planned" "$m_curl"); medians of $runs; $rate; $where)")
  results+=("target 1b: ratio $r1b (limit $l1b) $(verdict "$r1b" "$l1b")  apply $big_size without a saved plan ${m_unplanned}s; floor ${f1b}s = the send ${m_send}s + the plan's read ${m_read}s (hashcount) + the same apply of a one-row file ${m_tu}s; limit: the floor + half the smaller of the send and the read (over curl alone $(ratio "$m_unplanned" "$m_curl"); medians of $runs)")

  local m_rss_big m_rss_small r2 v2
  m_rss_big="$(median "${rss_big[@]}")" m_rss_small="$(median "${rss_small[@]}")"
  r2="$(ratio "$m_rss_big" "$m_rss_small")"
  v2="$(verdict "$r2" 1.10)"
  if (($(awk -v k="$m_rss_big" 'BEGIN { print (k > 64 * 1024) }'))); then v2=FAIL; fi
  results+=("target 2: ratio $r2 (limit 1.10) $v2  provider peak RSS $big_size $(mib "$m_rss_big") MiB (limit 64 MiB); floor: $small_size $(mib "$m_rss_small") MiB (medians of $runs)")
}

# Target 3: plans of 20 unchanged imports of large files beside the same
# imports of tiny files; the large ones again with the hash cache off.
target_plan_big() {
  local i big=() tiny=() off=()
  log "bench: target 3: applying 20 imports of $BENCH_T3_SIZE and 20 of $(stat -c %s "$bench/t3tiny/tiny0.csv") bytes"
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
  results+=("target 3: ratio $r3 (limit 1.30) $(verdict "$r3" 1.30)  plan of 20 unchanged imports of $BENCH_T3_SIZE ${m_big}s; floor: the same plan of 20 one-line files ${m_tiny}s; hash cache off: ratio $r_off, ${m_off}s (medians of $runs)")
}

# Target 4: rows encoding (Go benchmark).
target_rows() {
  log "bench: go test -bench BenchmarkRowsEncode25MB, $runs times"
  local out4="" i
  # One go test a run, so that the encodings alternate: -count runs each
  # one's repeats back to back.
  for i in $(seq 1 "$runs"); do
    out4+="$(cd "$root" && go test ./internal/etl -run '^$' -bench 'BenchmarkRowsEncode25MB' -benchmem -count=1)"$'\n'
  done
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
  results+=("target 4: ratio $r4 (limit 2.00) $v4  encode 25 MB (the slower of the JSON body and the CSV); floor: json.Marshal of the same rows; JSON body $(awk -v n="$t_body" 'BEGIN { printf "%.1f", n / 1e6 }') ms, CSV $(awk -v n="$t_csv" 'BEGIN { printf "%.1f", n / 1e6 }') ms, json.Marshal $(awk -v n="$t_marshal" 'BEGIN { printf "%.1f", n / 1e6 }') ms; peak memory ratio $m4 (limit 3.00): JSON body $(mib $((${p_body%.*} / 1024))) MiB, CSV $(mib $((${p_csv%.*} / 1024))) MiB for a $(mib $((${body_b%.*} / 1024))) MiB body (medians of $runs)")
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
  results+=("target 5: ratio $r5 (limit 1.15) $(verdict "$r5" 1.15)  apply of 200 etl_import ${m_many}s; floor: 200 time_static ${m_time}s (terraform-provider-time $time_version, a provider doing no I/O); 200 terraform_data ${m_data}s (-parallelism=$parallelism; medians of $runs)")
}

# Target 6: plans of 50, 200 and 800 unchanged imports (t6_sizes, three
# sizes), and of one. The cost per resource from the second size to the
# third over the cost per resource from the first to the second: work that
# grows faster than the imports raises it; Terraform's and the provider's
# start, and what a plan of few imports does not pay yet, do not. In CPU
# seconds (Terraform's and the provider's, user and system), which a busy
# machine leaves as they are; the wall times, and the costs over the plan
# of one, printed beside.
target_growth() {
  local n i
  local -A times=() cpus=()
  for n in 1 "${t6_sizes[@]}"; do
    log "bench: target 6: applying $n imports"
    tf_run "$work/t6_$n" "$work/rss.t6" apply -auto-approve -parallelism="$parallelism" >/dev/null
  done
  local t6_runs="${BENCH_T6_RUNS:-$runs}"
  for i in $(seq 1 "$t6_runs"); do
    local line="bench: run $i: plan of"
    for n in 1 "${t6_sizes[@]}"; do
      times[$n]+="$(tf_time "$work/t6_$n" "$work/rss.t6" plan -detailed-exitcode -parallelism="$parallelism") "
      cpus[$n]+="$(tf_cpu) "
      line+=" $n $(awk '{ print $NF }' <<<"${times[$n]}")s ($(awk '{ print $NF }' <<<"${cpus[$n]}") CPU s),"
    done
    log "${line%,}"
  done
  local -a ns=() cs=() ms=()
  for n in 1 "${t6_sizes[@]}"; do
    # shellcheck disable=SC2086 # one figure a word
    ns+=("$n") cs+=("$(median ${cpus[$n]})") ms+=("$(median ${times[$n]})")
  done
  # per A B FIGURES...: ms per resource from the A-th size to the B-th.
  per() {
    local a="$1" b="$2"
    shift 2
    local -a v=("$@")
    awk -v x="${v[a]}" -v y="${v[b]}" -v n="${ns[a]}" -v m="${ns[b]}" 'BEGIN { printf "%.2f", (y - x) / (m - n) * 1000 }'
  }
  local low high r6 v6 figures="" k
  low="$(per 1 2 "${cs[@]}")" high="$(per 2 3 "${cs[@]}")"
  if (($(awk -v l="$low" 'BEGIN { print (l <= 0) }'))); then
    r6="n/a" v6=FAIL # more imports took no more CPU: not a measure
  else
    r6="$(ratio "$high" "$low")" v6="$(verdict "$r6" 1.30)"
  fi
  for k in 0 1 2 3; do figures+=", ${ns[k]} ${cs[k]} CPU s (wall ${ms[k]}s)"; done
  results+=("target 6: ratio $r6 (limit 1.30) $v6  plan of unchanged imports, CPU ms per resource from ${ns[2]} to ${ns[3]}: $high; floor: from ${ns[1]} to ${ns[2]}: $low; over the plan of one: ${ns[1]} $(per 0 1 "${cs[@]}"), ${ns[2]} $(per 0 2 "${cs[@]}"), ${ns[3]} $(per 0 3 "${cs[@]}"); wall ms per resource from ${ns[2]} to ${ns[3]} $(per 2 3 "${ms[@]}"), from ${ns[1]} to ${ns[2]} $(per 1 2 "${ms[@]}"); plans:${figures#,} (medians of $t6_runs)")
}

# Target 7: the plan's read of a newly generated CSV (2 GiB; t7_size) with
# its counts (hash, check of the head and counting in one read:
# localfile.HashFile with flatfile.RowCounter, as the provider's plan reads a
# file) beside a plain SHA-256 of the same file by Go (io.Copy into
# crypto/sha256); printed beside: the plan's read without the counting, the
# counting alone, and the CPU times (user + system). The two compared run
# back to back, in an order that alternates from run to run, and the ratio
# is the median of the runs' ratios (pairing keeps it meaningful when the
# machine's speed drifts); the ratio of the medians is printed beside.
# Target 7b: the counting against SHA-256 block by block in one process
# (hashcount -mode split), the median of the runs' figures; the CPU seconds
# the counting adds to the plan's read, over a SHA-256 pass's, printed
# beside. The file is made in the run's temporary directory, read once
# before timing (the page cache holds it, as for the other targets), and
# removed at the end.
target_hashcount() {
  local file="$work/t7.csv" i lines size pairs=() splits=() adds=()
  local -A wall=() cpu=()
  log "bench: target 7: generating $file ($t7_size)"
  "$bench/gencsv" -size "$t7_size" -o "$file"
  lines="$(wc -l <"$file")" size="$(stat -c %s "$file")"
  # hc MODE: runs hashcount and prints its wall and CPU seconds; the counts
  # it prints must be the file's (one header line, then rows).
  hc() {
    local t0 t
    t0="$(now)"
    "$time_bin" -f '%U %S' -o "$work/t7.time" "$bench/hashcount" -mode "$1" "$file" >"$work/t7.out"
    t="$(elapsed "$t0")"
    if [[ "$1" == plan || "$1" == count || "$1" == split ]] && ! grep -q "rows $((lines - 1)) columns \[\"Account\" \"Entity\" \"Amount\" \"Memo\"\] size $size\$" "$work/t7.out"; then
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
  # last KIND MODE: the last figure of MODE.
  last() {
    local -n arr="$1"
    awk '{ print $NF }' <<<"${arr[$2]}"
  }
  hc sha256 >/dev/null # warm-up, not timed
  for i in $(seq 1 "$runs"); do
    if ((i % 2)); then run sha256; run plan; else run plan; run sha256; fi
    pairs+=("$(ratio "$(last wall plan)" "$(last wall sha256)")")
    run hash
    run count
    hc split >/dev/null
    splits+=("$(awk '{ for (k = 1; k < NF; k++) if ($k == "ratio") print $(k + 1) }' "$work/t7.out")")
    adds+=("$(awk -v p="$(last cpu plan)" -v h="$(last cpu hash)" -v s="$(last cpu sha256)" 'BEGIN { printf "%.3f", (p - h) / s }')")
    log "bench: run $i: plan's read with counts $(last wall plan)s, plain SHA-256 $(last wall sha256)s (ratio ${pairs[-1]}), without counts $(last wall hash)s, counting alone $(last wall count)s; block by block, counting over SHA-256 ${splits[-1]}; CPU seconds with counts $(last cpu plan), without $(last cpu hash), SHA-256 $(last cpu sha256)"
  done
  rm -f "$file"
  # med KIND MODE: the median of wall or cpu figures of MODE.
  med() {
    local -n arr="$1"
    # shellcheck disable=SC2086 # one figure a word
    median ${arr[$2]}
  }
  local r7 r7b m_sha m_plan m_hash m_count c_sha c_plan c_hash c_count rate
  r7="$(median "${pairs[@]}")" r7b="$(awk -v r="$(median "${splits[@]}")" 'BEGIN { printf "%.3f", r }')"
  m_sha="$(med wall sha256)" m_plan="$(med wall plan)" m_hash="$(med wall hash)" m_count="$(med wall count)"
  c_sha="$(med cpu sha256)" c_plan="$(med cpu plan)" c_hash="$(med cpu hash)" c_count="$(med cpu count)"
  rate="$(awk -v s="$m_count" -v b="$size" 'BEGIN { printf "%.0f", b / s / 1e6 }')"
  results+=("target 7: ratio $r7 (limit 1.15) $(verdict "$r7" 1.15)  plan's read of $t7_size with counts ${m_plan}s; floor: plain SHA-256 by Go ${m_sha}s (ratio of the medians $(ratio "$m_plan" "$m_sha")); without the counting ${m_hash}s (ratio $(ratio "$m_plan" "$m_hash")); counting alone ${m_count}s (about $rate MB/s); CPU seconds: with counts $c_plan, SHA-256 $c_sha, without counts $c_hash, counting alone $c_count; $((lines - 1)) rows (medians of $runs, unpinned)")
  results+=("target 7b: ratio $r7b (limit 0.100) $(verdict "$r7b" 0.100)  the counting of $t7_size; floor: SHA-256 of the same blocks, side by side block by block in one process (hashcount -mode split, median of the blocks); CPU seconds the counting adds to the plan's read (with counts less without) over SHA-256's: $(median "${adds[@]}") (medians of $runs)")
}
