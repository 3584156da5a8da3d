variable "template_id" { type = string }

# The job whose inputs were loaded before the test, outside Terraform.
variable "job_id" { type = string }

import {
  to = etl_import.adopted
  id = var.job_id
}

resource "etl_import" "adopted" {
  template_id = var.template_id
  inputs = {
    "Load Actuals" = { rows = [["Account", "Amount"], ["4000", "100.50"], ["4010", "-20"]] }
    "Load Rates"   = { rows = [["Currency", "Rate"], ["EUR", "1.08"], ["CAD", "0.73"]] }
  }
}
