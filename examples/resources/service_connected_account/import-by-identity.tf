# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of a
# connected account is its id; `terraform query` (Terraform 1.14+) with the
# service_connected_account list resource finds them (filter by user_ids,
# toolkit_slugs, auth_config_ids, statuses).
import {
  to = service_connected_account.github
  identity = {
    id = "ca_1a2b3c4d5e6f"
  }
}
