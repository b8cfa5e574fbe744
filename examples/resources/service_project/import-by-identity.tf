# Terraform 1.12+: import by identity. The identity of a project is its id;
# `terraform query` with the service_project list resource finds it.
import {
  to = service_project.production
  identity = {
    id = "pr_1a2b3c4d5e6f"
  }
}
