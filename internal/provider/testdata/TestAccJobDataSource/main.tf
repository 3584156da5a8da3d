variable "template_id" { type = string }

# A job started outside Terraform.
variable "outside_job_id" { type = string }

resource "etl_import" "gl" {
  template_id         = var.template_id
  rows                = [["Account", "Amount"], ["4000", "1"]]
  submit              = true
  wait_for_completion = true
}

data "etl_job" "gl" {
  id = etl_import.gl.id
}

data "etl_job" "outside" {
  id = var.outside_job_id
}
