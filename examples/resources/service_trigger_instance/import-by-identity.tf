# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of a
# trigger instance is its trigger id (ti_...); `terraform query` (Terraform
# 1.14+) with the service_trigger_instance list resource finds them.
import {
  to = service_trigger_instance.large_charges
  identity = {
    id = "ti_1a2b3c4d5e6f"
  }
}
