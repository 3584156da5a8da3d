variable "gl_template_id" { type = string }
variable "sales_template_id" { type = string }
variable "cancel" { type = bool }

resource "etl_import" "cancel" {
  template_id       = var.gl_template_id
  rows              = [["Account", "Amount"], ["4000", "1"]]
  cancel_on_destroy = var.cancel
}

resource "etl_import" "keep" {
  template_id = var.sales_template_id # another model: not queued behind the first
  rows        = [["Product", "Units"], ["Widget", "3"]]
}
