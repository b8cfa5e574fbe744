# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of a
# session is its id (trs_...); the service does not list sessions, so there
# is no list resource to find them with.
import {
  to = service_tool_router_session.support
  identity = {
    id = "trs_AbC123dEf456"
  }
}
