# A template with several input steps: one input per step, keyed by the
# step name that data.etl_template.<name>.steps shows (or by its input id).
# The job is created, each input is loaded into it, then it is submitted
# (submit defaults to true with inputs).
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

# A template whose steps share a name: key each input by its input id.
# inputs = {
#   "640101874288689165" = { file = { path = "${path.module}/data/east.csv" } }
#   "640101874288689166" = { file = { path = "${path.module}/data/west.csv" } }
# }
