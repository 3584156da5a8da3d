# Adopt an existing job by its id (18 or 19 digits). The next apply takes the
# resource's configuration over without starting a new job.
import {
  to = etl_import.gl
  id = "1140000000000000001"
}
