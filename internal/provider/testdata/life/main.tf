# One etl_import of the CSV file var.path, submitted, and waited for unless
# var.wait is false: the configuration of the tests of a resource's
# whole life (resource_import_life_acc_test.go), whose values come from a
# terraform.tfvars.json written beside it.

variable "template_id" { type = string }
variable "path" { type = string }
variable "wait" {
  type    = bool
  default = true
}
variable "cancel_on_destroy" {
  type    = bool
  default = false
}

resource "etl_import" "x" {
  template_id         = var.template_id
  file                = { path = var.path }
  submit              = true
  wait_for_completion = var.wait
  cancel_on_destroy   = var.cancel_on_destroy
}
