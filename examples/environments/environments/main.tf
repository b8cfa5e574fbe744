# Stage 2: what lives in each environment's project. One provider
# configuration per project, each with that project's key (the outputs of
# stage 1), and one module instance per environment.
terraform {
  required_version = ">= 1.11"

  required_providers {
    service = {
      source = "integration-service/service"
    }
  }
}

variable "staging_api_key" {
  description = "API key of the staging project (stage 1's api_keys[\"staging\"])."
  type        = string
  sensitive   = true
}

variable "production_api_key" {
  description = "API key of the production project (stage 1's api_keys[\"production\"])."
  type        = string
  sensitive   = true
}

provider "service" {
  alias   = "staging"
  api_key = var.staging_api_key
}

provider "service" {
  alias   = "production"
  api_key = var.production_api_key
}

module "staging" {
  source    = "./modules/environment"
  providers = { service = service.staging }

  environment = "staging"
}

module "production" {
  source    = "./modules/environment"
  providers = { service = service.production }

  environment = "production"
}

output "auth_config_ids" {
  description = "The GitHub auth config of each environment."
  value = {
    staging    = module.staging.github_auth_config_id
    production = module.production.github_auth_config_id
  }
}
