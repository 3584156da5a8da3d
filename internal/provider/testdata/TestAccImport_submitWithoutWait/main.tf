variable "sales_template_id" { type = string }
variable "headcount_template_id" { type = string }

resource "etl_import" "sub" {
  template_id = var.sales_template_id
  rows        = [["Product", "Units"], ["Widget", "3"]]
  submit      = true
}

resource "etl_import" "nosub" {
  template_id = var.headcount_template_id # another model: not queued behind the first
  rows        = [["Employee", "Department"], ["Ana", "Finance"]]
}
