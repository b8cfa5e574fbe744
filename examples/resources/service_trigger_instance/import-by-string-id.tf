# Trigger instances are imported by their trigger id (ti_...), as listed by
# the service_trigger_instances data source.
import {
  to = service_trigger_instance.large_charges
  id = "ti_1a2b3c4d5e6f"
}
