# A job started elsewhere, by its id (passed in by the stage that started it).
variable "job_id" {
  type    = string
  default = "1140000000000000001"
}

data "etl_job" "nightly" {
  id = var.job_id
}

output "nightly" {
  value = {
    status     = data.etl_job.nightly.status
    model_name = data.etl_job.nightly.model_name
    user_name  = data.etl_job.nightly.user_name
    updated    = data.etl_job.nightly.updated_date
  }
}
