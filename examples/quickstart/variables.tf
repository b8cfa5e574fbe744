variable "user_id" {
  description = "Your application's id for the end user who owns the connected accounts."
  type        = string
  default     = "quickstart-user"
}

variable "callback_url" {
  description = "Where the browser goes after the user approves the OAuth connection."
  type        = string
  default     = "https://example.com/connected"
}

variable "stripe_api_key" {
  description = "The end user's Stripe API key. Ephemeral: it is never written to state or plan files."
  type        = string
  sensitive   = true
  ephemeral   = true
  default     = "sk_test_quickstart_0000000000"
}

variable "linear_client_secret" {
  description = "Client secret of your own Linear OAuth app. Ephemeral: never written to state or plan files."
  type        = string
  sensitive   = true
  ephemeral   = true
  default     = "quickstart-linear-secret"
}
