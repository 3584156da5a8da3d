# Rows kept out of the state and the plan (personal data, a large fixture):
# rows_wo is write-only (Terraform 1.11 and later, OpenTofu 1.11 and later),
# as is file.content_wo for inline file content. content_sha256 is still
# computed from the rows at plan time, so an edit plans a new job and
# unchanged rows plan nothing.
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
