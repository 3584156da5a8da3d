data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# A flat file. Its format comes from the extension (.csv, .psv, .tsv/.tdf/.tab);
# an edit to the file plans a new job, an unchanged file plans nothing.
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

# Inline text, encoded to the declared encoding before it is sent.
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

# Rows, header row first: sent as JSON with start with data.
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
