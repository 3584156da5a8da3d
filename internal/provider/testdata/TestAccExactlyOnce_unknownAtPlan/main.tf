variable "template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "path" { type = string }

# The path goes through terraform_data: unknown at plan when it changes.
resource "terraform_data" "path" {
  input = var.path
}

resource "etl_import" "gl" {
  template_id = var.template_id
  file = {
    path = terraform_data.path.output
  }
}
