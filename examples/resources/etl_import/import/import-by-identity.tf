# Terraform 1.12 and later: adopt an existing job by its identity, the job
# id. The next apply takes the resource's configuration over without
# starting a new job.
import {
  to       = etl_import.payroll
  identity = { id = "1140000000000000002" }
}
