variable "template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "path" { type = string }

resource "etl_import" "file" {
  template_id = var.template_id
  file        = { path = var.path }
}

resource "etl_import" "rows" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "1"], ["4010", "2"], ["4020", "3"]]
}

resource "etl_import" "wo" {
  template_id = var.template_id
  rows_wo     = [["Account", "Amount"], ["4000", "facts-wo-secret"]]
}
