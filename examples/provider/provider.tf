# The token's hub gives the service address https://{hub}.vena.io.
provider "etl" {
  hub          = "us2"
  token_id     = "1112140681100620800.1"
  token_secret = var.etl_token_secret
}

variable "etl_token_secret" {
  description = "The application token's secret (or leave token_secret unset and export ETL_TOKEN_SECRET)."
  type        = string
  sensitive   = true
}

# Every setting can come from the environment instead:
#   ETL_HUB, ETL_TOKEN_ID, ETL_TOKEN_SECRET and ETL_BASE_URL.
# base_url replaces the hub's address, for example to use the local emulator:
#
# provider "etl" {
#   base_url = "http://127.0.0.1:8080"
# }
