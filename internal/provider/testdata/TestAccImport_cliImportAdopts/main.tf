variable "template_id" { type = string }

# The configuration need not match what the adopted job imported: the
# first apply takes it over as it is.
resource "etl_import" "sales" {
  template_id = var.template_id
  file = {
    content = "Product,Units\nWidget,3\n"
    format  = "CSV"
  }
  submit = true
}
