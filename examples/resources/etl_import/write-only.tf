# Rows kept out of the state and the plan: personal data, a large fixture.
resource "etl_import" "payroll" {
  template_id = data.etl_template.gl.id

  rows_wo = [
    ["Account", "Amount"],
    ["6100", "5200.00"],
    ["6110", "4875.50"],
  ]

  submit              = true
  wait_for_completion = true
}
