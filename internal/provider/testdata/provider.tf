# The provider block every configuration under testdata shares
# (withProvider copies it beside each one): the emulator the test serves
# on loopback, and its credentials, passed as variables (configVariables).
# hash_cache null (the default) leaves the setting out.
variable "endpoint" { type = string }
variable "token_id" { type = string }
variable "token_secret" {
  type      = string
  sensitive = true
}
variable "hash_cache" {
  type    = bool
  default = null
}

provider "etl" {
  base_url     = var.endpoint
  token_id     = var.token_id
  token_secret = var.token_secret
  max_retries  = 1
  hash_cache   = var.hash_cache
}
