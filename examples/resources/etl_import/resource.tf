data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# The format comes from the extension (.csv, .psv, .tsv). An edited file
# plans a new job; a job that ends in ERROR fails the apply.
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
