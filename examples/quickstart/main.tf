# Quickstart: look templates up by name, import a CSV file and inline rows,
# submit both jobs and wait for them to finish.
#
# The provider's settings come only from the environment:
#   ETL_BASE_URL (or ETL_HUB), ETL_TOKEN_ID and ETL_TOKEN_SECRET.
# `make demo` starts the local emulator and exports them.

terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

provider "etl" {}

data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

data "etl_template" "headcount" {
  name = "Headcount"
}

resource "etl_import" "gl" {
  template_id = data.etl_template.gl.id

  file = {
    path = "${path.module}/data/gl.csv"
  }

  submit              = true
  wait_for_completion = true
}

resource "etl_import" "headcount" {
  template_id = data.etl_template.headcount.id

  rows = [
    ["Employee", "Department"],
    ["Zoë Tremblay", "Finance"],
    ["José Núñez", "Sales"],
  ]

  submit              = true
  wait_for_completion = true
}

output "gl_job" {
  value = {
    id             = etl_import.gl.id
    status         = etl_import.gl.status
    model          = etl_import.gl.model_name
    content_sha256 = etl_import.gl.content_sha256
    # What the plan showed of the data sent: its data rows (the header row
    # excluded) and its bytes.
    row_count  = etl_import.gl.row_count
    size_bytes = etl_import.gl.size_bytes
  }
}

output "headcount_job" {
  value = {
    id         = etl_import.headcount.id
    status     = etl_import.headcount.status
    model      = etl_import.headcount.model_name
    row_count  = etl_import.headcount.row_count
    size_bytes = etl_import.headcount.size_bytes
  }
}
