# Two etl_import blocks of count 2 that send the same rows, neither
# submitted nor waited for: four new objects of one definition in one
# apply, as the explorer's sequence 1181 (CI's seed 1116 on Terraform 1.16)
# had them (resource_import_identical_acc_test.go).

variable "template_id" { type = string }

resource "etl_import" "a" {
  count       = 2
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "100"], ["4010", "-20"]]
}

resource "etl_import" "b" {
  count       = 2
  template_id = var.template_id
  rows        = [["Account", "Amount"], ["4000", "100"], ["4010", "-20"]]
}
