# Send rows, header row first, as a JSON body.
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
