# Reload the data whenever another resource is replaced: here a stand-in for
# a model that is rebuilt (replaced) when its version changes. The action runs
# after the replacement is created (after_create covers a create and the
# create half of a replacement), and only then: an apply that changes nothing
# invokes nothing.
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
