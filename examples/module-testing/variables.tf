variable "name_prefix" {
  description = "Prefix of the auth config's name."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,30}$", var.name_prefix))
    error_message = "name_prefix must be 1 to 31 lower-case letters, digits and dashes, starting with a letter."
  }
}

variable "user_id" {
  description = "The end user whose GitHub account is connected."
  type        = string
}

variable "callback_url" {
  description = "Where the service sends the user after the OAuth consent."
  type        = string
  default     = null
}

variable "repository" {
  description = "The repository whose commits the trigger reports."
  type = object({
    owner = string
    name  = string
  })
}

variable "subscribe" {
  description = "Create the commit trigger (needs the connection to be ACTIVE)."
  type        = bool
  default     = false
}
