variable "name_prefix" {
  description = "Prefix of the auth config's name."
  type        = string
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
