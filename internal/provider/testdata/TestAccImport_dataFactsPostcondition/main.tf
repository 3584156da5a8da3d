variable "template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "path" { type = string }

resource "etl_import" "empty" {
  template_id = var.template_id
  file        = { path = var.path }
  lifecycle {
    postcondition {
      condition     = self.row_count > 0
      error_message = "the data file holds no rows"
    }
  }
}
