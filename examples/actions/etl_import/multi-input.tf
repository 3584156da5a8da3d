# One input per step, keyed by step name (or input id):
#   terraform apply -auto-approve -invoke=action.etl_import.actuals_and_rates
data "etl_template" "actuals_and_rates" {
  name       = "Actuals and Rates"
  model_name = "Finance Plan"
}

action "etl_import" "actuals_and_rates" {
  config {
    template_id = data.etl_template.actuals_and_rates.id

    inputs = {
      # A file, as the top-level file block.
      "Load Actuals" = {
        file = { path = "${path.module}/data/actuals.csv" }
      }
      # Rows, header first, sent as a CSV file.
      "Load Rates" = {
        rows = [
          ["Currency", "Rate"],
          ["EUR", "1.08"],
          ["CAD", "0.73"],
        ]
      }
    }

    wait_for_completion = true
  }
}
