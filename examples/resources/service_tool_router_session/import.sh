# Sessions are imported by their id (trs_...); the service does not list
# sessions.
terraform import service_tool_router_session.support trs_AbC123dEf456
