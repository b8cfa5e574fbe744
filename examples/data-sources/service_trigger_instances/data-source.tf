# Trigger instances of one user, paused ones included.
data "service_trigger_instances" "user_42" {
  user_ids      = ["user-42"]
  trigger_names = ["STRIPE_CHARGE_SUCCEEDED_TRIGGER"]
  show_disabled = true
}

output "trigger_ids" {
  value = data.service_trigger_instances.user_42.trigger_instances[*].id
}
