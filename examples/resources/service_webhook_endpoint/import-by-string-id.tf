# Manage an endpoint that already exists (a create with the same toolkit and
# client_id would adopt it as well, with a warning).
import {
  to = service_webhook_endpoint.slack
  id = "we_1a2b3c4d5e6f"
}
