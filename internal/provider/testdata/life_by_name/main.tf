# testdata/life with its template looked up by name: the configuration of
# the test of a destroy after the template was deleted on the service
# (resource_import_life_acc_test.go). var.template_id is unused.

variable "template_id" { type = string }
variable "path" { type = string }

data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

resource "etl_import" "x" {
  template_id         = data.etl_template.gl.id
  file                = { path = var.path }
  submit              = true
  wait_for_completion = true
}
