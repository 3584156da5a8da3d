# The import of the file of a cacheFixture (resource_import_hash_cache_acc_test.go).

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
