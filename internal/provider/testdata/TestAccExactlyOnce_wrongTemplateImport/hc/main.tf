variable "hc_template_id" { type = string }

resource "etl_import" "hc" {
  template_id = var.hc_template_id
  rows        = [["Account", "Amount"], ["4000", "12"]]
}
