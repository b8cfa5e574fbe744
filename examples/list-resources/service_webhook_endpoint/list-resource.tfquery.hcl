# The project's Slack webhook endpoints, for `terraform query`
# (-generate-config-out writes a resource block per endpoint, without data_wo:
# the setup fields are write-only and never read back).
list "service_webhook_endpoint" "slack" {
  provider         = service
  include_resource = true

  config {
    toolkit = "slack"
  }
}
