# Sessions are imported by their id (trs_...). The service does not list
# sessions: keep the id, for example as an output of the configuration that
# created the session.
import {
  to = service_tool_router_session.support
  id = "trs_AbC123dEf456"
}
