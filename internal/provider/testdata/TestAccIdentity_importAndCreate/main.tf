variable "template_id" { type = string }

# The job started before the test, outside Terraform.
variable "job_id" { type = string }

import {
  to       = etl_import.adopted
  identity = { id = var.job_id }
}

resource "etl_import" "adopted" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "12"]]
}

resource "etl_import" "created" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "13"]]
}
