# A provider function is called only through a provider declared in
# required_providers; the provider under test is served as hashicorp/etl.
terraform {
  required_providers {
    etl = {
      source = "registry.terraform.io/hashicorp/etl"
    }
  }
}
