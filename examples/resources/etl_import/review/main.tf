data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# The plan knows the file's columns, rows and size: postconditions on them
# stop the plan before any job starts.
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

# A check block warns, and lets the plan go on.
check "gl_size" {
  assert {
    condition     = etl_import.gl.row_count < 1000000
    error_message = "data/gl.csv holds a million rows or more: is it the right file?"
  }
}
