variable "template_id" { type = string }

# "Amount" is a required column of the template: the job ends in ERROR.
resource "etl_import" "bad" {
  template_id         = var.template_id
  rows                = [["Account", "Value"], ["4000", "1"]]
  wait_for_completion = true
}
