# In a .tfquery.hcl file beside the configuration (Terraform 1.14 or later):
#
#   terraform query                                  # list what the service holds
#   terraform query -generate-config-out=import.tf   # import blocks and resources
#
# The trigger instances of one user, paused ones included (at most 50).
list "service_trigger_instance" "user_42" {
  provider = service
  limit    = 50

  config {
    user_ids      = ["user-42"]
    trigger_names = ["STRIPE_CHARGE_SUCCEEDED_TRIGGER"]
    show_disabled = true
  }
}
