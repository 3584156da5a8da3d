# Terraform 1.12 and later, OpenTofu 1.12: adopt a job by its identity, the
# job id, exactly as by id.
import {
  to       = etl_import.payroll
  identity = { id = "1140000000000000002" }
}

resource "etl_import" "payroll" {
  template_id = data.etl_template.gl.id
  rows = [
    ["Account", "Amount"],
    ["6100", "5200.00"],
  ]
}
