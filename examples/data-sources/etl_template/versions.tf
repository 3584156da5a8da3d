# The provider requirement and settings, shared by every example in this
# directory: each example file holds only its data sources.
terraform {
  required_providers {
    etl = {
      source = "etl-provider/etl"
    }
  }
}

# Settings from ETL_HUB (or ETL_BASE_URL), ETL_TOKEN_ID and ETL_TOKEN_SECRET.
provider "etl" {}
