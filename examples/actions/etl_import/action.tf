data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# Every invocation starts one new job with the file as it is then:
#   terraform apply -auto-approve -invoke=action.etl_import.gl
action "etl_import" "gl" {
  config {
    template_id = data.etl_template.gl.id

    file = {
      path = "${path.module}/data/gl.csv"
    }

    submit              = true
    wait_for_completion = true
    timeouts            = { invoke = "1h" }
  }
}
