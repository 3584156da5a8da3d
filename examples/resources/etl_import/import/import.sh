# Or with the import command, by job id.
terraform import etl_import.gl 1140000000000000001
