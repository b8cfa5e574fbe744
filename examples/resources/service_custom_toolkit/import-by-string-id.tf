# Custom toolkits are imported by their registered slug (CUSTOM_...), listed by
# the service_toolkits data source with type = "custom".
import {
  to = service_custom_toolkit.acme
  id = "CUSTOM_ACME"
}
