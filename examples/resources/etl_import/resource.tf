terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

# Settings from the environment: ETL_HUB (or ETL_BASE_URL), ETL_TOKEN_ID and
# ETL_TOKEN_SECRET.
provider "etl" {}

data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# Upload a file (start with file). Its format comes from the extension (.csv,
# .psv, .tsv/.tdf/.tab); an edit to the file plans a new job, an unchanged
# file plans nothing. Submitted, then waited for: a job that ends in ERROR
# fails the apply.
resource "etl_import" "gl" {
  template_id = data.etl_template.gl.id

  file = {
    path     = "${path.module}/data/gl.csv"
    encoding = "UTF-8" # or "UTF-16", "Windows Latin-1"
  }

  submit              = true
  wait_for_completion = true

  timeouts = {
    create = "30m"
  }
}

# Upload inline text as a file, encoded to the declared encoding first. Not
# submitted (submit defaults to false), not waited for.
resource "etl_import" "adjustments" {
  template_id = data.etl_template.gl.id

  file = {
    content  = <<-EOT
      Account|Amount
      4000|125.00
      4010|-40.00
    EOT
    format   = "PSV"
    encoding = "Windows Latin-1"
    name     = "adjustments.psv"
  }
}

# Send rows (start with data), header row first, as a JSON body.
resource "etl_import" "rows" {
  template_id = data.etl_template.gl.id

  rows = [
    ["Account", "Amount"],
    ["4000", "100.50"],
    ["4010", "-20"],
  ]

  submit            = true
  cancel_on_destroy = true
}
