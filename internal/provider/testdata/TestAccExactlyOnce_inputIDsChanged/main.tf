variable "template_id" { type = string }

resource "etl_import" "gl" {
  template_id = var.template_id
  inputs = {
    "Load Actuals" = { rows = [["Account", "Amount"], ["4000", "1"]] }
    "Load Rates"   = { rows = [["Currency", "Rate"], ["USD", "1"]] }
  }
}
