terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

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

# Every setting that has an environment variable can come from it instead:
# ETL_HUB, ETL_TOKEN_ID, ETL_TOKEN_SECRET, ETL_BASE_URL, ETL_CA_CERT_FILE and
# ETL_HASH_CACHE.
# With them exported, `provider "etl" {}` is enough. base_url replaces the
# hub's address, for a proxy, a private deployment or the emulator.
