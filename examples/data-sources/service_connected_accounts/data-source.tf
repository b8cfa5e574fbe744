# The ACTIVE accounts of one user on two toolkits.
data "service_connected_accounts" "user_42" {
  user_ids      = ["user-42"]
  toolkit_slugs = ["github", "stripe"]
  statuses      = ["ACTIVE"]
}

output "active_account_ids" {
  value = data.service_connected_accounts.user_42.accounts[*].id
}

# The user's accounts by alias (accounts without one are left out).
output "accounts_by_alias" {
  value = {
    for a in data.service_connected_accounts.user_42.accounts : a.alias => a.id if a.alias != null
  }
}
