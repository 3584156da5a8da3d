data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# A fixture built in HCL, header row first.
locals {
  gl_rows = concat(
    [["Account", "Amount", "Memo"]],
    [for i in range(3) : [tostring(4000 + 10 * i), format("%.2f", 100 * (i + 1)), "Fixture row ${i + 1}, seeded"]],
    [["4900", "-12.50", "Refund \"ACME\""]],
  )
}

# The CSV text, for a check or to write with local_file:
#   Account,Amount,Memo
#   4000,100.00,"Fixture row 1, seeded"
#   ...
#   4900,-12.50,"Refund ""ACME"""
output "gl_csv" {
  value = provider::etl::csv_encode(local.gl_rows)
}

# Imported as a CSV file.
resource "etl_import" "gl_fixture" {
  template_id = data.etl_template.gl.id

  file = {
    content = provider::etl::csv_encode(local.gl_rows)
    name    = "gl_fixture.csv"
  }

  submit = true
}
