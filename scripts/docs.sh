#!/usr/bin/env bash
# Generates docs/ with tfplugindocs, offline.
#
#   scripts/docs.sh TFPLUGINDOCS_BINARY
#
# tfplugindocs would otherwise build the provider under a hashicorp/ address
# and look for `terraform` on PATH, downloading one when it finds none. Here
# the schema comes from Terraform 1.16 (see below), through a dev_overrides CLI
# configuration, and is handed to tfplugindocs with --providers-schema: no
# network, no init.
set -euo pipefail

tfplugindocs="${1:?usage: $0 TFPLUGINDOCS_BINARY}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ETL_CACHE_DIR:-$root/.cache}"
out="$cache/docs"
bin_dir="$out/bin"
mkdir -p "$bin_dir"

# The schema comes from Terraform 1.16 (scripts/terraform-next-bin.sh: built
# once into the cache, or $TERRAFORM_NEXT_PATH): an older CLI leaves the
# etl_import action (Terraform 1.14+) out of the schema, and its page fails.
tf="$("$root/scripts/terraform-next-bin.sh")"
echo "docs: provider schema from $tf" >&2

(cd "$root" && go build -o "$bin_dir/terraform-provider-etl" .)
"$root/scripts/cli-config.sh" "$out/cli.tfrc" "$bin_dir"

work="$(mktemp -d "${TMPDIR:-/tmp}/etl-docs.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat >"$work/main.tf" <<'HCL'
terraform {
  required_providers {
    etl = {
      source = "registry.terraform.io/etl-provider/etl"
    }
  }
}
HCL

export CHECKPOINT_DISABLE=1
TF_CLI_CONFIG_FILE="$out/cli.tfrc" "$tf" -chdir="$work" providers schema -json >"$out/schema.raw.json"

# tfplugindocs looks the schema up by the provider's short name.
sed 's#"registry\.[a-z.]*/etl-provider/etl":#"etl":#' "$out/schema.raw.json" >"$out/schema.json"
grep -q '"etl":' "$out/schema.json" || {
  echo "docs: no schema for the etl provider in $out/schema.raw.json" >&2
  exit 1
}

cd "$root"
"$tfplugindocs" generate \
  --provider-dir "$root" \
  --provider-name etl \
  --rendered-provider-name ETL \
  --providers-schema "$out/schema.json"
