# Adopt the project's existing subscription (created in the dashboard or by
# another tool) instead of creating a second one, which the service refuses.
import {
  to = service_webhook_subscription.events
  id = "whs_1a2b3c4d5e6f"
}
