# One etl_import per key of var.keys, all with the same file: the
# configuration of the re-import acceptance tests (resource_import_reimport_acc_test.go).
# The provider block and required_providers are written beside it.

variable "template_id" { type = string }

# The data file, by absolute path: the provider under test runs in the
# test's process, not in this directory.
variable "data" { type = string }
variable "format" {
  type    = string
  default = "CSV"
}
variable "encoding" {
  type    = string
  default = "UTF-8"
}
variable "keys" {
  type    = list(string)
  default = ["a"]
}
variable "wait" {
  type    = bool
  default = true
}
variable "create_timeout" {
  type    = string
  default = "10m"
}
variable "keep_failed" {
  type    = bool
  default = false
}
variable "trigger" {
  type    = string
  default = "1"
}

# Changing var.trigger replaces every etl_import (replace_triggered_by).
resource "terraform_data" "trigger" {
  input = var.trigger
}

resource "etl_import" "gl" {
  for_each    = toset(var.keys)
  template_id = var.template_id
  file = {
    path     = var.data
    format   = var.format
    encoding = var.encoding
  }
  submit              = true
  wait_for_completion = var.wait
  keep_failed         = var.keep_failed
  timeouts = {
    create = var.create_timeout
  }
  lifecycle {
    replace_triggered_by = [terraform_data.trigger]
  }
}
