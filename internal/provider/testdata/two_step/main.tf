# The two-step template "Actuals and Rates": "Load Actuals" from the file
# var.actuals, "Load Rates" from rows. Shared by the tests of inputs
# (twoStepDirectory in resource_import_inputs_acc_test.go).

# The key of the "Load Actuals" step: its name or its input id.
variable "actuals_key" { type = string }

# The file of the "Load Actuals" step, by absolute path: Terraform runs in
# a copy of this directory.
variable "actuals" { type = string }

# null leaves the attribute out.
variable "submit" {
  type    = bool
  default = null
}
variable "wait" {
  type    = bool
  default = null
}

data "etl_template" "ar" {
  name = "Actuals and Rates"
}

resource "etl_import" "multi" {
  template_id = data.etl_template.ar.id
  inputs = {
    (var.actuals_key) = { file = { path = var.actuals } }
    "Load Rates"      = { rows = [["Currency", "Rate"], ["EUR", "1.08"], ["CAD", 0.73]] }
  }
  submit              = var.submit
  wait_for_completion = var.wait
}
