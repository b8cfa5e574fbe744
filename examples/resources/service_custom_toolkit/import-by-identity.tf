# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of a
# custom toolkit is its slug (CUSTOM_...); `terraform query` (Terraform 1.14+)
# with the service_custom_toolkit list resource finds them.
import {
  to = service_custom_toolkit.acme
  identity = {
    id = "CUSTOM_ACME"
  }
}
