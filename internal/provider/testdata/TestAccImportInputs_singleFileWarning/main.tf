# A template with two input steps, and one with a single step.
variable "two_step_template_id" { type = string }
variable "one_step_template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "actuals" { type = string }

resource "etl_import" "single" {
  template_id = var.two_step_template_id
  file        = { path = var.actuals }
}

resource "etl_import" "one_step" {
  template_id = var.one_step_template_id
  file        = { path = var.actuals }
}
