terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

# Settings from ETL_HUB (or ETL_BASE_URL), ETL_TOKEN_ID and ETL_TOKEN_SECRET.
provider "etl" {}

# The import template: where the data goes (a model) and how it is read.
data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# One import job: the file beside this one, sent and submitted.
resource "etl_import" "gl" {
  template_id = data.etl_template.gl.id
  file        = { path = "${path.module}/data/gl.csv" }
  submit      = true
}
