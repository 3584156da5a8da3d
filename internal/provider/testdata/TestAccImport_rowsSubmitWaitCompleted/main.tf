variable "wait" { type = bool }

data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

resource "etl_import" "rows" {
  template_id = data.etl_template.gl.id
  rows = [
    ["Account", "Amount"],
    ["4000", 100],
    ["4010", "-20.5"],
    ["4020", "Montréal & <co>"],
  ]
  submit              = true
  wait_for_completion = var.wait
}
