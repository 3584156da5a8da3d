# The two-step configuration of testdata/two_step, with a template that
# has no input steps beside it.

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

variable "no_step_template_id" { type = string }

resource "etl_import" "recalculate" {
  template_id         = var.no_step_template_id
  inputs              = {}
  wait_for_completion = true
}
