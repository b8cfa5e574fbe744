# Adopt an existing project (created in the dashboard or by another tool).
# Leave config out of its resource block (or ignore_changes = [config]): the
# service never returns it. The first api_key_rotation value is taken as the
# current key's and does not rotate.
import {
  to = service_project.production
  id = "pr_1a2b3c4d5e6f"
}
