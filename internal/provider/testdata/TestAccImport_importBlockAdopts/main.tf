variable "template_id" { type = string }
variable "amount" { type = string }

resource "etl_import" "adopted" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", var.amount]]
}
