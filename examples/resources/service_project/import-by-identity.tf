# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of a
# project is its id; `terraform query` (Terraform 1.14+) with the
# service_project list resource finds it.
import {
  to = service_project.production
  identity = {
    id = "pr_1a2b3c4d5e6f"
  }
}
