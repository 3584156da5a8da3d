# shellcheck shell=bash disable=SC2154 # bench template big_file small_file tiny_file t3_dir t6_sizes: set by scripts/bench.sh
# Sourced by scripts/bench.sh: the Terraform configurations it times.
# write_configs WORK writes one directory per configuration under WORK;
# $bench (and $big_file, $small_file, $tiny_file, $t3_dir) hold the data
# files, $template is the template's id, $t6_sizes the sizes of target 6.

provider_block='terraform {
  required_providers {
    etl = { source = "etl-provider/etl" }
  }
}
provider "etl" {}'
time_block='terraform {
  required_providers {
    time = { source = "hashicorp/time" }
  }
}'

# file_config PATH: one import of the file at PATH.
file_config() {
  printf '%s\nresource "etl_import" "bench" {\n  template_id = "%s"\n  file = { path = "%s" }\n}\n' "$provider_block" "$template" "$1"
}

# files_config N PATTERN: N imports, the i-th of the file PATTERN with %d
# replaced by i.
files_config() {
  printf '%s\nresource "etl_import" "files" {\n  count       = %d\n  template_id = "%s"\n  file = { path = format("%s", count.index) }\n}\n' \
    "$provider_block" "$1" "$template" "$2"
}

write_configs() {
  local work="$1" n
  mkdir -p "$work"/{file,small,tinyfile,empty,many,time,data,t3big,t3tiny}
  file_config "$big_file" >"$work/file/main.tf"
  file_config "$small_file" >"$work/small/main.tf"
  # The same import of a one-row file: Terraform's own cost (targets 1a, 1b).
  file_config "$tiny_file" >"$work/tinyfile/main.tf"
  # The same configuration without the file: rows of one cell.
  printf '%s\nresource "etl_import" "bench" {\n  template_id = "%s"\n  rows = [["Account"]]\n}\n' "$provider_block" "$template" >"$work/empty/main.tf"
  printf '%s\nresource "etl_import" "many" {\n  count       = 200\n  template_id = "%s"\n  rows        = [["Account", "Amount"], [tostring(4000 + count.index), "1"]]\n}\n' \
    "$provider_block" "$template" >"$work/many/main.tf"
  printf '%s\nresource "time_static" "many" {\n  count = 200\n}\n' "$time_block" >"$work/time/main.tf"
  printf 'resource "terraform_data" "many" {\n  count = 200\n  input = [["Account", "Amount"], [tostring(4000 + count.index), "1"]]\n}\n' >"$work/data/main.tf"
  files_config 20 "$t3_dir/f%d.csv" >"$work/t3big/main.tf"
  files_config 20 "$bench/t3tiny/tiny%d.csv" >"$work/t3tiny/main.tf"
  for n in 1 "${t6_sizes[@]}"; do
    mkdir -p "$work/t6_$n"
    files_config "$n" "$bench/t6/f%d.csv" >"$work/t6_$n/main.tf"
  done
}
