# A webhook endpoint is imported by its id, as listed by the
# service_webhook_endpoints data source (or `terraform query`). Its setup
# fields are write-only and not read back: set data_wo and data_wo_version to
# send them.
terraform import service_webhook_endpoint.slack we_1a2b3c4d5e6f
