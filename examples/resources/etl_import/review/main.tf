data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# A failed postcondition stops the plan before any job starts.
resource "etl_import" "gl" {
  template_id = data.etl_template.gl.id

  file = {
    path = "${path.module}/data/gl.csv"
  }

  submit              = true
  wait_for_completion = true

  lifecycle {
    postcondition {
      condition     = contains(self.columns, "Amount")
      error_message = "data/gl.csv has no Amount column, which the GL Actuals template needs."
    }
    postcondition {
      condition     = self.row_count > 0
      error_message = "data/gl.csv holds no data row."
    }
  }
}
