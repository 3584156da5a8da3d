# The configuration of TestAccImport_importBlockAdopts with an import
# block: the job started on the emulator before the test is adopted.
variable "job_id" { type = string }

import {
  to = etl_import.adopted
  id = var.job_id
}

variable "template_id" { type = string }
variable "amount" { type = string }

resource "etl_import" "adopted" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", var.amount]]
}
