# The import of the file of a cacheFixture, as in testdata/hash_cache, and
# an import of rows.

variable "template_id" { type = string }

# The data file, by absolute path: Terraform runs in a copy of this
# directory.
variable "path" { type = string }

resource "etl_import" "gl" {
  template_id = var.template_id
  file = {
    path = var.path
  }
}

resource "etl_import" "rows" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "1"]]
}
