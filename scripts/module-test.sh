#!/usr/bin/env bash
# Runs the tests of the fixture module examples/modules/fixture
# (`make module-test`) with each CLI named in MODULE_TEST_CLIS:
#   terraform       scripts/terraform-bin.sh: the terraform on PATH (Terraform
#                   1.11 in CI), else OpenTofu
#   terraform-next  scripts/terraform-next-bin.sh: Terraform 1.16.4 (built
#                   into .cache/ once, or $TERRAFORM_NEXT_PATH)
#   tofu            TOFU_FORCE_BUILD=1 scripts/tofu-bin.sh: OpenTofu 1.12.6
#                   (built into .cache/ once, or $TOFU_PATH)
# default: all three. For each, in a copy of the module:
#   1. `init`, the provider built from this checkout installed from a
#      filesystem mirror (scripts/provider-mirror.sh), as with a release;
#   2. `test -filter=tests/unit.tftest.hcl`: the mock provider, plan only,
#      with no ETL_* setting in the environment and no service;
#   3. `test -filter=tests/integration.tftest.hcl`: apply against
#      `etl-emulator -background -instant`, its settings in the environment,
#      stopped afterwards.
# Ends with one line per CLI and test file, with the CLI's own counts
# ("N passed, N failed"), then their sum: "tests: N passed, N failed, N skipped".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
work="$cache/module-test"
read -r -a clis <<<"${MODULE_TEST_CLIS:-terraform terraform-next tofu}"

rm -rf "$work"
mkdir -p "$work/bin"
version="$("$root/scripts/provider-mirror.sh" "$work/provider")"
(cd "$root" && go build -o "$work/bin/etl-emulator" ./internal/emulator/cmd/etl-emulator)

export TF_CLI_CONFIG_FILE="$work/provider/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset TF_CLI_ARGS TF_LOG TF_PLUGIN_CACHE_DIR ETL_HUB ETL_BASE_URL ETL_TOKEN_ID ETL_TOKEN_SECRET ETL_CA_CERT_FILE
color=()
[[ -t 1 ]] || color=(-no-color)

emulator_pid=""
stop_emulator() {
  if [[ -n "$emulator_pid" ]]; then
    kill "$emulator_pid" 2>/dev/null || true
    emulator_pid=""
  fi
}
trap stop_emulator EXIT

summary=()
failed=0
total_passed=0 total_failed=0 total_skipped=0
# run_test NAME CLI ARGS...: runs `CLI test ARGS...`, keeping its counts.
run_test() {
  local name="$1" cli="$2" rc=0 counts
  shift 2
  "$cli" test "${color[@]}" "$@" 2>&1 | tee "$work/test.log" || rc=$?
  counts="$(grep -oE '[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?' "$work/test.log" | sed -n '$p')"
  local n
  read -r -a n <<<"$(sed -E 's/[^0-9]+/ /g' <<<"${counts:-0 0 0}") 0"
  total_passed=$((total_passed + n[0])) total_failed=$((total_failed + n[1])) total_skipped=$((total_skipped + n[2]))
  if [[ $rc -eq 0 ]]; then
    summary+=("ok    $name: ${counts:-no count printed}")
  else
    summary+=("FAIL  $name: ${counts:-exit $rc}")
    failed=1
  fi
}

for which in "${clis[@]}"; do
  case "$which" in
    terraform) cli="$("$root/scripts/terraform-bin.sh")" ;;
    terraform-next) cli="$("$root/scripts/terraform-next-bin.sh")" ;;
    tofu) cli="$(TOFU_FORCE_BUILD=1 "$root/scripts/tofu-bin.sh")" ;;
    *)
      echo "module-test: unknown CLI '$which' in MODULE_TEST_CLIS (terraform, terraform-next, tofu)" >&2
      exit 2
      ;;
  esac
  cli_version="$("$cli" version | sed -n 1p)" # sed reads it all: no SIGPIPE under pipefail
  name="${cli_version/ v/ }"
  printf '\n==> %s (%s): examples/modules/fixture, provider %s from a local mirror\n' "$cli_version" "$cli" "$version"
  dir="$work/$which/fixture"
  mkdir -p "$(dirname "$dir")"
  cp -R "$root/examples/modules/fixture" "$dir"
  rm -rf "$dir/.terraform" "$dir/.terraform.lock.hcl"
  cd "$dir"
  if ! "$cli" init -input=false "${color[@]}" >"$work/init.log" 2>&1; then
    cat "$work/init.log"
    summary+=("FAIL  $name: init")
    failed=1
    continue
  fi

  echo "--- unit test (mock provider, plan only, no service)"
  run_test "$name unit" "$cli" -filter=tests/unit.tftest.hcl

  echo "--- integration test (apply against etl-emulator -background)"
  eval "$("$work/bin/etl-emulator" -background -instant -log-file "$work/$which/emulator.log")"
  emulator_pid="$ETL_EMULATOR_PID"
  run_test "$name integration" "$cli" -filter=tests/integration.tftest.hcl
  stop_emulator
  unset ETL_BASE_URL ETL_TOKEN_ID ETL_TOKEN_SECRET ETL_EMULATOR_PID ETL_EMULATOR_LOG_FILE
  cd "$root"
done

printf '\n==> module-test summary\n'
printf '%s\n' "${summary[@]}"
# The run blocks of every CLI, in the line .ci/run shows beside the step.
echo "tests: $total_passed passed, $total_failed failed, $total_skipped skipped"
exit "$failed"
