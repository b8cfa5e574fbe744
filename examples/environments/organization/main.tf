# Stage 1: the organization. It runs with the organization's API key only
# (SERVICE_ORG_API_KEY, or org_api_key in the provider block): a
# configuration that manages nothing but projects needs no project key.
terraform {
  required_version = ">= 1.11"

  required_providers {
    service = {
      source = "integration-service/service"
    }
  }
}

provider "service" {}

variable "environments" {
  description = "The environments to create a project for."
  type        = set(string)
  default     = ["staging", "production"]
}

variable "deletion_protection" {
  description = "Refuse to destroy or replace a project (and everything in it). Set to false, apply, then destroy."
  type        = bool
  default     = true
}

variable "key_rotation" {
  description = "Change this value to regenerate every project's API key (each project's earlier keys stop working at once)."
  type        = string
  default     = "initial"
}

resource "service_project" "env" {
  for_each = var.environments

  name                = each.key
  deletion_protection = var.deletion_protection
  api_key_rotation    = var.key_rotation
}

output "project_ids" {
  description = "Project id by environment."
  value       = { for env, p in service_project.env : env => p.id }
}

# Each project's key, delivered at creation (and at each rotation). Hand it to
# the second stage, e.g. from a CI secret store or terraform_remote_state.
output "api_keys" {
  description = "Project API key by environment."
  value       = { for env, p in service_project.env : env => p.api_key }
  sensitive   = true
}
