# Auth configs are imported by their id.
terraform import service_auth_config.github ac_1a2b3c4d5e6f
