# Reseed whenever a stand-in for the model is replaced: after_create runs the
# action after a create, or the create half of a replacement.
variable "model_version" {
  description = "The model's version: a new one rebuilds the model, then reseeds it."
  type        = string
  default     = "1"
}

resource "terraform_data" "model" {
  triggers_replace = [var.model_version]

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.etl_import.reseed]
    }
  }
}

action "etl_import" "reseed" {
  config {
    template_id = data.etl_template.gl.id

    rows = [
      ["Account", "Amount"],
      ["4000", "0"],
      ["4010", "0"],
    ]

    submit              = true
    wait_for_completion = true
  }
}
