data "service_webhook_event_types" "all" {}

# Subscribe to every event type delivered in V3.
resource "service_webhook_subscription" "all_events" {
  webhook_url = "https://hooks.example.com/service"
  enabled_events = [
    for t in data.service_webhook_event_types.all.event_types : t.event_type
    if contains(t.supported_versions, "V3")
  ]
}
