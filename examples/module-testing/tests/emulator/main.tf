# Test helper: calls one of the emulator's control routes, standing in for
# what happens outside Terraform: the user approving an OAuth connection
# (connected_accounts/ID/complete) or the toolkit sending an event
# (trigger_instances/ID/fire). Uses SERVICE_BASE_URL and SERVICE_API_KEY from
# the environment, like the provider, and needs curl.

variable "route" {
  description = "Control route under /_emulator/, e.g. connected_accounts/ca_123/complete."
  type        = string
}

variable "body" {
  description = "JSON body of the request (a fired trigger's event payload)."
  type        = string
  default     = "{}"
}

resource "terraform_data" "call" {
  input = var.route

  provisioner "local-exec" {
    command = "curl -fsS -o /dev/null -X POST -H \"x-api-key: $SERVICE_API_KEY\" -H 'content-type: application/json' --data \"$BODY\" \"$SERVICE_BASE_URL/_emulator/$ROUTE\""
    environment = {
      ROUTE = var.route
      BODY  = var.body
    }
  }
}
