# Auth configs are imported by their id (ac_...), shown in the service's
# dashboard or by the service_auth_configs data source.
import {
  to = service_auth_config.github
  id = "ac_1a2b3c4d5e6f"
}
