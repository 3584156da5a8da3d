# Upload inline text as a file, encoded to the declared encoding first, and
# submit it (submit defaults to false); not waited for.
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

  submit = true
}
