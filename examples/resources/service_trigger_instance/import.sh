# Trigger instances are imported by their trigger id.
terraform import service_trigger_instance.large_charges ti_1a2b3c4d5e6f
