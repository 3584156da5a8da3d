#!/usr/bin/env bash
# The quickstart, end to end and offline:
#   1. builds the emulator, and the provider into a local filesystem mirror
#      (scripts/provider-mirror.sh), installed as a release would be;
#   2. runs the rest of this script as `etl-emulator -- scripts/demo.sh
#      --with-emulator`: the emulator serves while it runs, with
#      ETL_BASE_URL, ETL_TOKEN_ID and ETL_TOKEN_SECRET set, and stops with it;
#   3. terraform init, apply of examples/quickstart, destroy, and a summary
#      of what happened.
# Colour codes only when stdout is a terminal.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
demo="$cache/demo"
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
# Written first: a TF_CLI_CONFIG_FILE naming a missing file makes every
# terraform command complain.
export TF_CLI_CONFIG_FILE="$demo/cli.tfrc"

say() { printf '\n==> %s\n' "$*"; }

if [[ "${1:-}" != --with-emulator ]]; then
  mkdir -p "$demo"
  version="$("$root/scripts/provider-mirror.sh" "$demo")"
  tf="$("$root/scripts/terraform-bin.sh")"
  say "using $("$tf" version | head -n 1) ($tf)"
  say "built the provider $version into $demo/mirror; building the emulator"
  (cd "$root" && go build -o "$demo/etl-emulator" ./internal/emulator/cmd/etl-emulator)
  say "starting the emulator: etl-emulator -- scripts/demo.sh --with-emulator"
  DEMO_TF="$tf" exec "$demo/etl-emulator" -- "${BASH_SOURCE[0]}" --with-emulator
fi

tf="$DEMO_TF"
name="$(basename "$tf")"
color=()
[[ -t 1 ]] || color=(-no-color)
work="$(mktemp -d "${TMPDIR:-/tmp}/etl-demo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -R "$root/examples/quickstart" "$work/quickstart"
cd "$work/quickstart"
# Leftovers of someone's local run must not leak into the demo.
rm -rf .terraform .terraform.lock.hcl terraform.tfstate terraform.tfstate.backup

say "$name init (etl-provider/etl from the local mirror, its checksum locked first)"
platform="$(go env GOOS)_$(go env GOARCH)"
if ! out="$("$tf" providers lock -fs-mirror="$demo/mirror" -platform="$platform" "${color[@]}" 2>&1)"; then
  printf '%s\n' "$out" >&2
  exit 1
fi
"$tf" init -input=false "${color[@]}"

say "$name apply (examples/quickstart, against the emulator at $ETL_BASE_URL)"
"$tf" apply -auto-approve -input=false "${color[@]}"

# field NAME KEY: a string field of an object output.
field() { "$tf" output -json "$1" | sed -n "s/.*\"$2\":\"\\([^\"]*\\)\".*/\\1/p"; }
# number NAME KEY: a number field of an object output, read from the applied
# state (the provider counted it at plan); fails when it is not a number.
number() {
  local n
  n="$("$tf" output -json "$1" | sed -n "s/.*\"$2\":\\([0-9][0-9]*\\)[,}].*/\\1/p")"
  [[ -n "$n" ]] || { echo "demo: the output $1 has no number $2" >&2; return 1; }
  printf '%s\n' "$n"
}
gl_id="$(field gl_job id)" gl_status="$(field gl_job status)" gl_model="$(field gl_job model)"
hc_id="$(field headcount_job id)" hc_status="$(field headcount_job status)"
gl_rows="$(number gl_job row_count)" gl_bytes="$(number gl_job size_bytes)"
hc_rows="$(number headcount_job row_count)" hc_bytes="$(number headcount_job size_bytes)"

say "$name destroy"
"$tf" destroy -auto-approve -input=false "${color[@]}"

say "what just happened"
fmt -w 78 <<EOF
Terraform looked two import templates up by name in the emulator (an in-memory stand-in for the service), then started two import jobs: job $gl_id uploaded data/gl.csv ($gl_rows data rows, $gl_bytes bytes) to "GL Actuals" in $gl_model, and job $hc_id sent $hc_rows inline data rows ($hc_bytes bytes) to "Headcount"; these counts are row_count and size_bytes in the applied state, shown by the plan before either job started. Both were submitted and waited for: $gl_id ended $gl_status and $hc_id ended $hc_status. Destroy then removed them from the Terraform state only: an import cannot be undone, so destroying never deletes imported data. The emulator stopped with this demo and kept nothing. Next: read examples/quickstart/main.tf, docs/resources/import.md (submitting, replacement), docs/guides/import-jobs.md (a failed job) and docs/guides/fixtures-in-ci.md, or run the emulator yourself: ${demo#"$root"/}/etl-emulator -h
EOF
