# A project is imported by its id (the service_projects data source lists
# them). config and api_key cannot be read back: they stay null, and
# api_key is filled by the next rotation (api_key_rotation).
terraform import service_project.production pr_1a2b3c4d5e6f
