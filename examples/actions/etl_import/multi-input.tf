# A template with several input steps: one input per step, keyed by the
# step name that data.etl_template.<name>.steps shows (or by its input id).
#
#   terraform apply -auto-approve -invoke=action.etl_import.actuals_and_rates
#
# Every invocation creates one new job, loads each input into it in the
# template's step order, then submits it (submit defaults to true with
# inputs) and, here, waits for it.
data "etl_template" "actuals_and_rates" {
  name       = "Actuals and Rates"
  model_name = "Finance Plan"
}

action "etl_import" "actuals_and_rates" {
  config {
    template_id = data.etl_template.actuals_and_rates.id

    inputs = {
      # A file, with the same attributes as the top-level file block.
      "Load Actuals" = {
        file = { path = "${path.module}/data/actuals.csv" }
      }
      # Rows, header first: sent as a UTF-8 CSV file.
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
