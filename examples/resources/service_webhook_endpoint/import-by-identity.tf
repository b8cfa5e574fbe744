# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of a
# webhook endpoint is its id; `terraform query` (Terraform 1.14+) with the
# service_webhook_endpoint list resource finds it.
import {
  to = service_webhook_endpoint.slack
  identity = {
    id = "we_1a2b3c4d5e6f"
  }
}
