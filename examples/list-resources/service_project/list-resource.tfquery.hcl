# In a .tfquery.hcl file beside the configuration (Terraform 1.14 or later):
#
#   terraform query                                  # list what the service holds
#   terraform query -generate-config-out=import.tf   # import blocks and resources
#
# The organization's projects whose name contains "prod", with the values
# the resource would store after an import (config and api_key null,
# deletion_protection true). Needs the organization's key (org_api_key).
list "service_project" "prod" {
  provider         = service
  include_resource = true

  config {
    name = "prod"
  }
}
