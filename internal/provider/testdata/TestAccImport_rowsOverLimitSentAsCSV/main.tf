variable "template_id" { type = string }

# How many data rows, and the width of their Amount cells: enough to put
# the rows over the limit of a start with data.
variable "n_rows" { type = number }
variable "cell_len" { type = number }

resource "etl_import" "big" {
  template_id = var.template_id
  rows = concat(
    [["Account", "Amount", "Memo, long"]],
    [for i in range(var.n_rows) : [tostring(4000 + i), format("%0${var.cell_len}d", i), "say \"hi\""]],
  )
}
