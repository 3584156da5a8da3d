# Adopt a job that already ran, by its id. Write the data the job imported:
# the service does not return it.
import {
  to = etl_import.gl
  id = "1140000000000000001"
}

data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

resource "etl_import" "gl" {
  template_id = data.etl_template.gl.id
  file        = { path = "${path.module}/data/gl.csv" }
}
