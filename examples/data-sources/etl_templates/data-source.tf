# Every template the token may use, in the service's order.
data "etl_templates" "all" {}

# Only the templates of one model whose names start with "GL".
data "etl_templates" "finance_gl" {
  model_name = "Finance Plan"
  name_regex = "^GL "
}

output "template_names" {
  value = [for t in data.etl_templates.all.templates : "${t.name} (${t.id}, ${t.model_name})"]
}

output "finance_gl_ids" {
  value = data.etl_templates.finance_gl.templates[*].id
}
