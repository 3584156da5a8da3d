variable "sales_template_id" { type = string }

# The job of the "GL Actuals" template of Sales Model, started outside
# Terraform.
variable "sales_job" { type = string }

import {
  to = etl_import.sales
  id = var.sales_job
}

resource "etl_import" "sales" {
  template_id = var.sales_template_id
  rows        = [["Account", "Amount"], ["4000", "12"]]
}
