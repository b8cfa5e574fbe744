# Custom toolkits are imported by the slug the service gave them (CUSTOM_...).
# The service does not report auth_scheme.headers or discovery_url: set them in
# the configuration; the import leaves them unset.
terraform import service_custom_toolkit.acme CUSTOM_ACME
