variable "template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "path" { type = string }

# The path is unknown at plan time: it is the output of a resource not
# yet created.
resource "terraform_data" "path" {
  input = var.path
}

resource "etl_import" "later" {
  template_id = var.template_id
  file = {
    path = terraform_data.path.output
  }
}
