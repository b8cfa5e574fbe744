# The project's Slack webhook endpoints (one per Slack app client_id).
data "service_webhook_endpoints" "slack" {
  toolkit = "slack"
}

output "slack_endpoint_ids" {
  value = data.service_webhook_endpoints.slack.ids
}
