# Connected accounts are imported by their id.
terraform import service_connected_account.github ca_1a2b3c4d5e6f
