variable "finance_model_id" { type = string }

data "etl_templates" "all" {}

data "etl_templates" "sales" {
  model_name = "Sales Model"
}

data "etl_templates" "finance_by_id" {
  model_id = var.finance_model_id
}

data "etl_templates" "gl" {
  name_regex = "^GL "
}

data "etl_templates" "gl_finance" {
  name_regex = "^GL"
  model_name = "Finance Plan"
}

data "etl_templates" "none" {
  model_name = "No Such Model"
}
