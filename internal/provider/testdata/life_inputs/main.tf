# The two-step template "Actuals and Rates" by id: "Load Actuals" from the
# file var.path, "Load Rates" from rows; the configuration of the tests of
# a resource's whole life with inputs (resource_import_life_acc_test.go).

variable "template_id" { type = string }
variable "path" { type = string }

resource "etl_import" "x" {
  template_id = var.template_id
  inputs = {
    "Load Actuals" = { file = { path = var.path } }
    "Load Rates"   = { rows = [["Currency", "Rate"], ["EUR", "1.08"]] }
  }
  submit              = true
  wait_for_completion = true
}
