# The project's webhook subscription (one per project): every enabled event
# is POSTed to webhook_url, signed with the subscription's secret.
resource "service_webhook_subscription" "events" {
  webhook_url = "https://hooks.example.com/service"
  enabled_events = [
    "composio.trigger.message",
    "composio.connected_account.expired",
  ]
  version = "V3"

  # Change this value to rotate the signing secret in place.
  secret_rotation = "2026-01"
}

# Hand the secret to the receiver's configuration, e.g. as an output
# (sensitive) or into a secret manager resource.
output "webhook_secret" {
  value     = service_webhook_subscription.events.secret
  sensitive = true
}
