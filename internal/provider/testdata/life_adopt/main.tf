# One etl_import that adopts a job started outside Terraform, by
# `terraform import etl_import.x <job id>`: the configuration of the tests
# of an adopted job's whole life (resource_import_life_acc_test.go).

variable "template_id" { type = string }
variable "path" { type = string }

resource "etl_import" "x" {
  template_id = var.template_id
  file        = { path = var.path }
}
