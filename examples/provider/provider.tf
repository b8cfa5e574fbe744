terraform {
  required_version = ">= 1.11"

  required_providers {
    service = {
      source  = "integration-service/service"
      version = "~> 0.1"
    }
  }
}

# The API key and base URL usually come from the environment:
#   export SERVICE_API_KEY=...
#   export SERVICE_BASE_URL=https://backend.composio.dev   # the default
#   export SERVICE_TOOLKIT_VERSION_GITHUB=20251015_00      # optional, per toolkit
provider "service" {
  # Pin the toolkit versions whose schemas your configuration relies on.
  # Per-toolkit entries win over SERVICE_TOOLKIT_VERSION_<NAME>, which wins
  # over toolkit_version.
  toolkit_versions = {
    github = "20251015_00"
    stripe = "20251015_00"
  }
  toolkit_version = "latest"

  request_timeout = "30s"
  max_retries     = 10
}
