#!/usr/bin/env bash
# The quickstart, end to end and offline:
#   1. builds the provider and the emulator,
#   2. starts the emulator on a free loopback port,
#   3. applies examples/quickstart through a dev_overrides CLI configuration
#      (no registry, no init), prints the outputs, destroys,
#   4. stops the emulator, whatever happened.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
demo="$cache/demo"
bin_dir="$demo/bin"

say() { printf '\n==> %s\n' "$*"; }

for need in "$root/internal/emulator/cmd/etl-emulator" "$root/examples/quickstart"; do
  if [[ ! -d "$need" ]]; then
    echo "demo: $need is missing" >&2
    exit 1
  fi
done

tf="$("$root/scripts/terraform-bin.sh")"
say "using $("$tf" version | head -n 1) ($tf)"

say "building the provider and the emulator"
mkdir -p "$bin_dir"
(
  cd "$root"
  go build -o "$bin_dir/terraform-provider-etl" .
  go build -o "$demo/etl-emulator" ./internal/emulator/cmd/etl-emulator
)

work="$(mktemp -d "${TMPDIR:-/tmp}/etl-demo.XXXXXX")"
emulator_pid=""
cleanup() {
  local rc=$?
  if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
    echo "demo: emulator stopped" >&2
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "starting the emulator"
"$demo/etl-emulator" -addr 127.0.0.1:0 -url-file "$work/emulator.url" >"$work/emulator.out" 2>"$work/emulator.err" &
emulator_pid=$!

# Wait until it listens and has printed its settings.
for _ in $(seq 1 100); do
  if grep -q '^ETL_TOKEN_SECRET=' "$work/emulator.out" 2>/dev/null && [[ -s "$work/emulator.url" ]]; then
    break
  fi
  if ! kill -0 "$emulator_pid" 2>/dev/null; then
    echo "demo: the emulator exited early:" >&2
    cat "$work/emulator.out" "$work/emulator.err" >&2
    exit 1
  fi
  sleep 0.1
done
if ! grep -q '^ETL_TOKEN_SECRET=' "$work/emulator.out"; then
  echo "demo: the emulator did not print its settings within 10s:" >&2
  cat "$work/emulator.out" "$work/emulator.err" >&2
  exit 1
fi
while IFS='=' read -r key value; do
  case "$key" in
    ETL_BASE_URL | ETL_TOKEN_ID | ETL_TOKEN_SECRET | ETL_HUB) export "$key=$value" ;;
  esac
done < <(grep -E '^ETL_[A-Z_]+=' "$work/emulator.out")
echo "emulator listening at $ETL_BASE_URL (pid $emulator_pid)"

"$root/scripts/cli-config.sh" "$work/cli.tfrc" "$bin_dir"
export TF_CLI_CONFIG_FILE="$work/cli.tfrc"
export CHECKPOINT_DISABLE=1
export TF_IN_AUTOMATION=1

cp -R "$root/examples/quickstart" "$work/quickstart"
cd "$work/quickstart"
# Leftovers of someone's local run must not leak into the demo.
rm -rf .terraform .terraform.lock.hcl terraform.tfstate terraform.tfstate.backup

say "$(basename "$tf") apply (examples/quickstart)"
"$tf" apply -auto-approve -input=false

say "$(basename "$tf") output"
"$tf" output

say "$(basename "$tf") destroy"
"$tf" destroy -auto-approve -input=false

say "demo finished"
