# By name: an error lists the candidates when none or several match.
data "etl_template" "headcount" {
  name = "Headcount"
}

# Names are not unique across models: narrow by model_name or model_id.
data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# By id.
data "etl_template" "by_id" {
  id = "640101874288689152"
}

output "gl_template" {
  value = {
    id         = data.etl_template.gl.id
    model_id   = data.etl_template.gl.model_id
    input_ids  = data.etl_template.gl.steps[*].input_id
    last_run   = data.etl_template.gl.last_run_time
    headcount  = data.etl_template.headcount.id
    by_id_name = data.etl_template.by_id.name
  }
}
