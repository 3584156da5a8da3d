# One etl_import per key of var.rows, each sending its rows, submitted, and
# waited for or not by var.wait: the configuration of the killed-apply
# acceptance tests (resource_import_killed_acc_test.go), whose values come
# from a terraform.tfvars.json written beside it, with the provider block,
# required_providers and, for a remote state, a backend block.

variable "template_id" { type = string }
variable "rows" { type = map(list(list(string))) }
variable "wait" { type = map(bool) }

resource "etl_import" "x" {
  for_each            = var.rows
  template_id         = var.template_id
  rows                = each.value
  submit              = true
  wait_for_completion = var.wait[each.key]
  timeouts = {
    create = "10m"
  }
}
