# Read a user's GitHub OAuth token at plan/apply time and hand it to another
# provider's configuration. Ephemeral values are never written to the plan or
# the state (Terraform 1.10 or later).
variable "github_account_id" {
  type        = string
  description = "Connected account (ca_...) of the user whose GitHub connection configures the github provider."
}

ephemeral "service_connected_account_credentials" "github" {
  connected_account_id = var.github_account_id
}

# For example, with the integrations/github provider:
#
# provider "github" {
#   # lookup(): values is empty once the account is REVOKED or EXPIRED (a
#   # warning then), and a plan or destroy must still evaluate this.
#   token = lookup(ephemeral.service_connected_account_credentials.github.values, "access_token", null)
# }

locals {
  # Only ACTIVE accounts have values; others give a warning naming the status.
  github_scheme = ephemeral.service_connected_account_credentials.github.auth_scheme
}
