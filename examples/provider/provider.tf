terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

# Or leave the block empty and export ETL_HUB, ETL_TOKEN_ID and ETL_TOKEN_SECRET.
provider "etl" {
  hub          = "us2"
  token_id     = "1112140681100620800.1"
  token_secret = var.etl_token_secret
}

variable "etl_token_secret" {
  type      = string
  sensitive = true
}
