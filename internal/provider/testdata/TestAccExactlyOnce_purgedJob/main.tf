variable "template_id" { type = string }

# The behaviour settings; null leaves one out.
variable "cancel" {
  type    = bool
  default = null
}
variable "wait" {
  type    = bool
  default = null
}
variable "submit" {
  type    = bool
  default = null
}

resource "etl_import" "gl" {
  template_id         = var.template_id
  rows                = [["Account", "Amount"], ["4000", "1"]]
  cancel_on_destroy   = var.cancel
  wait_for_completion = var.wait
  submit              = var.submit
}
