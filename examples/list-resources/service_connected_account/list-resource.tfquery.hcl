# In a .tfquery.hcl file beside the configuration (Terraform 1.14 or later):
#
#   terraform query                                  # list what the service holds
#   terraform query -generate-config-out=import.tf   # import blocks and resources
#
# The ACTIVE accounts of one user on two toolkits, with the values the
# resource would store after an import.
list "service_connected_account" "user_42" {
  provider         = service
  include_resource = true

  config {
    user_ids      = ["user-42"]
    toolkit_slugs = ["github", "stripe"]
    statuses      = ["ACTIVE"]
  }
}
