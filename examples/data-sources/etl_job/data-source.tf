# A job started elsewhere (another configuration, a script, the service's
# own tools), by its id: for example passed in by the pipeline stage that
# started it.
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
