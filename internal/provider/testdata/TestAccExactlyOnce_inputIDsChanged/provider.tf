# The emulator the test serves on loopback, and its credentials: the
# test passes them as variables (config.Variables).
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
