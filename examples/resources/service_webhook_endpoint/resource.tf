# The Slack app's signing secret, kept out of the plan and state: pass it as
# an ephemeral variable (e.g. TF_VAR_slack_signing_secret) to the write-only
# data_wo.
variable "slack_signing_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

# The webhook endpoint of a Slack app (one per toolkit and client_id): Slack
# triggers such as SLACK_RECEIVE_MESSAGE fire once its URL is the Request URL
# of the app's Event Subscriptions. Destroying the resource leaves the
# endpoint active on the service (the API has no delete).
resource "service_webhook_endpoint" "slack" {
  toolkit   = "slack"
  client_id = "1234567890.1234567890123"

  data_wo = {
    signing_secret = var.slack_signing_secret
    app_id         = "A0123456789"
  }
  # Increase to send data_wo again, e.g. after rotating the signing secret.
  data_wo_version = 1
}

output "slack_request_url" {
  value = service_webhook_endpoint.slack.webhook_url
}
