# The provider block every configuration under testdata shares
# (withProvider copies it beside each one): the emulator the test serves
# on loopback, and its credentials, passed as variables (configVariables).
variable "endpoint" { type = string }
variable "token_id" { type = string }
variable "token_secret" {
  type      = string
  sensitive = true
}

provider "etl" {
  base_url     = var.endpoint
  token_id     = var.token_id
  token_secret = var.token_secret
  max_retries  = 1
}
