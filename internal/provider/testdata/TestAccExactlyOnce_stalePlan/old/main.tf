variable "template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "path" { type = string }

resource "etl_import" "old" {
  template_id = var.template_id
  file = {
    path = var.path
  }
}
