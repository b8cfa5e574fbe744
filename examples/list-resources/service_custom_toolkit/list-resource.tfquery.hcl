# In a .tfquery.hcl file beside the configuration (Terraform 1.14 or later):
#
#   terraform query                                  # list what the service holds
#   terraform query -generate-config-out=import.tf   # import blocks and resources
#
# Every custom toolkit of the project (no filters). The service never
# returns auth_scheme.headers (API_KEY) or auth_scheme.discovery_url
# (DCR_OAUTH): the generated blocks have them null; replace the one the
# toolkit's mode needs with the value it was registered with before planning.
list "service_custom_toolkit" "all" {
  provider = service

  config {}
}
