# Lists the project's auth configs for `terraform query`. Every filter is
# optional; `terraform query -generate-config-out=generated.tf` writes a
# resource block and an import block for each result.
list "service_auth_config" "github" {
  provider = service

  config {
    toolkit            = "github"
    is_service_managed = true
  }
}

# Everything, disabled auth configs included, with the full object of each.
list "service_auth_config" "all" {
  provider         = service
  include_resource = true

  config {
    show_disabled = true
  }
}
