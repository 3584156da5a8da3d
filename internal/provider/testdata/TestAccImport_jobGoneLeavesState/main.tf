variable "template_id" { type = string }

resource "etl_import" "gone" {
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "1"]]
}
