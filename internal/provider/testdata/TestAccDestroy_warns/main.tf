variable "template_id" { type = string }

# The Amount of the one data row: another amount is other data, a new job.
variable "amount" { type = string }

resource "etl_import" "gl" {
  template_id       = var.template_id
  rows              = [["Account", "Amount"], ["4000", var.amount]]
  cancel_on_destroy = true
}
