# Terraform 1.14 or later (OpenTofu has no actions).
resource "service_auth_config" "linear" {
  toolkit     = "linear"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "Linear (platform pipeline)"
}

variable "linear_api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_connected_account" "pipeline" {
  user_id                = "platform-pipeline"
  auth_config_id         = service_auth_config.linear.id
  credentials_wo         = { api_key = var.linear_api_key }
  credentials_wo_version = 1
}

# Opens an issue each time it is invoked, as the pipeline's account:
#
#   terraform apply -invoke=action.service_tool_execute.open_issue
#
# The run reports whether the execution succeeded and its log id, not the
# tool's output; an execution the service answers as failed fails the run.
action "service_tool_execute" "open_issue" {
  config {
    tool    = "LINEAR_CREATE_ITEM"
    user_id = service_connected_account.pipeline.user_id
    arguments = jsonencode({
      name        = "Rotate the support bot's keys"
      description = "Opened by the platform pipeline after the last apply."
    })
  }
}
