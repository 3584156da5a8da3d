variable "template_id" { type = string }

# The keys of the two steps, both named "Load": a step name or an input id.
variable "first_key" { type = string }
variable "second_key" { type = string }

resource "etl_import" "twin" {
  template_id = var.template_id
  inputs = {
    (var.first_key)  = { rows = [["Product", "Units"], ["East", "1"]] }
    (var.second_key) = { rows = [["Product", "Units"], ["West", "2"]] }
  }
}
