# Adopt an existing job by its id (18 or 19 digits). The next apply takes the
# resource's configuration over without starting a new job.
terraform import etl_import.gl 1140000000000000001
