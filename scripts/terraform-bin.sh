#!/usr/bin/env bash
# Prints the absolute path of a Terraform-compatible CLI.
#
# Order: $TF_ACC_TERRAFORM_PATH if set and executable; `terraform` on PATH;
# `tofu` on PATH; otherwise the pinned OpenTofu built from the Go module proxy
# into .cache/tofu/<version>/tofu by scripts/tofu-bin.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" && -x "${TF_ACC_TERRAFORM_PATH}" ]]; then
  printf '%s\n' "$(cd "$(dirname "$TF_ACC_TERRAFORM_PATH")" && pwd)/$(basename "$TF_ACC_TERRAFORM_PATH")"
  exit 0
fi

for cli in terraform tofu; do
  if command -v "$cli" >/dev/null 2>&1; then
    command -v "$cli"
    exit 0
  fi
done

exec "$here/tofu-bin.sh"
