# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of an
# auth config is its id; `terraform query` (Terraform 1.14+) with the
# service_auth_config list resource finds them and writes these blocks for you
# (guide: adopting an existing project).
import {
  to = service_auth_config.github
  identity = {
    id = "ac_1a2b3c4d5e6f"
  }
}
