# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of the
# project's webhook subscription is its id; `terraform query` (Terraform
# 1.14+) with the service_webhook_subscription list resource finds it.
import {
  to = service_webhook_subscription.events
  identity = {
    id = "whs_1a2b3c4d5e6f"
  }
}
