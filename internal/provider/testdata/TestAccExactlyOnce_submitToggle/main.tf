variable "template_id" { type = string }
variable "submit" { type = bool }
variable "wait" { type = bool }

resource "etl_import" "gl" {
  template_id         = var.template_id
  rows                = [["Account", "Amount"], ["4000", "1"]]
  submit              = var.submit
  wait_for_completion = var.wait
}
