# A provider function is called only through a provider declared in
# required_providers; the provider under test is served as hashicorp/etl,
# on each CLI's own registry host (no host here: registry.terraform.io for
# Terraform, registry.opentofu.org for OpenTofu, as TF_ACC_PROVIDER_HOST).
terraform {
  required_providers {
    etl = {
      source = "hashicorp/etl"
    }
  }
}
