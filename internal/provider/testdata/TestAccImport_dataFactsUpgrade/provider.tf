# The emulator the test serves on loopback, and its credentials: the
# test passes them as variables (config.Variables). hash_cache null
# leaves the setting out.
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
