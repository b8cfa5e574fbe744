# The project's webhook subscription (there is at most one) for
# `terraform query`. After -generate-config-out, set secret_rotation to any
# value: the import takes the current secret as its baseline.
list "service_webhook_subscription" "current" {
  provider         = service
  include_resource = true

  config {}
}
