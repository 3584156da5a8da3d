#!/usr/bin/env bash
# Checks every example folder under examples/ as a user would run it
# (`make examples-check`):
#   1. `terraform fmt -check` of examples/;
#   2. for each folder with .tf files: `validate`, then `plan` against
#      `etl-emulator -background -instant`, with the folder's own files
#      (data files included) copied to a work directory, so that a plan
#      that reads a missing file, a job id that does not exist or a
#      template name the service lacks fails the check.
# The emulator starts with two GL Actuals jobs, 1140000000000000001 and
# 1140000000000000002 (its first ids): the jobs the import examples adopt
# and the etl_job example reads. Folders with an action block or an
# identity import run with Terraform 1.16 (scripts/terraform-next-bin.sh);
# the others with scripts/terraform-bin.sh. The provider is this checkout's,
# through a dev_overrides CLI configuration (no init).
#
#   scripts/examples-check.sh PROVIDER_BIN_DIR CLI_CONFIG
set -euo pipefail

bin_dir="${1:?usage: $0 PROVIDER_BIN_DIR CLI_CONFIG}"
cli_config="${2:?usage: $0 PROVIDER_BIN_DIR CLI_CONFIG}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
work="$cache/examples/run"

tf="$("$root/scripts/terraform-bin.sh")"
failed=0
if "$tf" fmt -check -diff -recursive "$root/examples"; then echo "ok    fmt -check examples"; else
  echo "FAIL  fmt -check examples: run 'make fmt'"
  failed=1
fi

rm -rf "$work"
mkdir -p "$work"
(cd "$root" && go build -o "$bin_dir/etl-emulator" ./internal/emulator/cmd/etl-emulator)
unset ETL_HUB ETL_CA_CERT_FILE TF_CLI_ARGS TF_LOG
eval "$(TMPDIR="$work" "$bin_dir/etl-emulator" -background -instant)"
trap 'kill "$ETL_EMULATOR_PID" 2>/dev/null || true' EXIT

# The jobs the import and etl_job examples name: started with rows, as any
# client would.
for n in 1 2; do
  curl -fsS -u "$ETL_TOKEN_ID:$ETL_TOKEN_SECRET" -H 'Content-Type: application/json' \
    -d '{"input":{"data":[["Account","Amount"],["4000","1"]]}}' \
    "$ETL_BASE_URL/api/public/v1/etl/templates/640101874288689152/startWithData" >/dev/null
done

# vars_of DIR: sets vars to the variables a folder needs: the token's
# secret for the provider's, those of its integration test for the module.
vars_of() {
  vars=()
  case "$1" in
    examples/provider) vars=("-var=etl_token_secret=$ETL_TOKEN_SECRET") ;;
    examples/modules/fixture)
      vars=('-var=template_name=GL Actuals' '-var=model_name=Finance Plan' '-var=file_path=tests/data/gl.csv'
        '-var=columns=["Account","Amount"]' '-var=rows=[["4000","980.00"]]')
      ;;
  esac
}

cd "$root"
dirs="$(find examples -name '*.tf' -not -path '*/.terraform/*' -exec dirname {} \; | sort -u)"
if [[ -z "$dirs" ]]; then
  echo "no example configurations found" >&2
  exit 1
fi
for d in $dirs; do
  cli="$tf"
  if grep -qsE '^action "|^  identity *= ' "$d"/*.tf; then cli="$("$root/scripts/terraform-next-bin.sh")"; fi
  copy="$work/$(echo "$d" | tr / _)"
  cp -R "$d" "$copy"
  rm -rf "$copy/.terraform" "$copy"/*.tfstate*
  vars_of "$d"
  if out="$(TF_CLI_CONFIG_FILE="$cli_config" "$cli" -chdir="$copy" validate -no-color 2>&1)" &&
    out="$(TF_CLI_CONFIG_FILE="$cli_config" "$cli" -chdir="$copy" plan -input=false -lock=false -no-color "${vars[@]}" 2>&1)"; then
    summary="$(grep -oE '^(Plan: .*|No changes\.|Changes to Outputs:)' <<<"$out" | head -n 1)"
    echo "ok    $d (plan: ${summary:-planned})"
  else
    echo "FAIL  $d"
    printf '%s\n' "$out" | sed 's/^/      /'
    failed=1
  fi
done
exit $failed
