data "etl_template" "gl" {
  name       = "GL Actuals"
  model_name = "Finance Plan"
}

# Re-run an import on demand (a nightly reload, a re-seed after the model is
# rebuilt) without replacing any resource:
#
#   terraform apply -auto-approve -invoke=action.etl_import.gl
#
# Every invocation starts one new job with the file's bytes as they are then,
# submits it and waits for it; a job that ends in ERROR fails the command.
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
