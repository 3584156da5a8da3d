# One input per step, keyed by the step name data.etl_template.<name>.steps
# shows (or by its input id). Submitted by default.
data "etl_template" "actuals_and_rates" {
  name       = "Actuals and Rates"
  model_name = "Finance Plan"
}

resource "etl_import" "actuals_and_rates" {
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
