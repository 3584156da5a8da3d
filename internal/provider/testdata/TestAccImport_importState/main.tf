variable "template_id" { type = string }

resource "etl_import" "gl" {
  template_id         = var.template_id
  rows                = [["Account", "Amount"], ["4000", "1"]]
  submit              = true
  wait_for_completion = true
}
