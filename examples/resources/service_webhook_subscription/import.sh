# A webhook subscription is imported by its id, as returned by
# GET /api/v3.1/webhook_subscriptions (the project has at most one).
terraform import service_webhook_subscription.events whs_1a2b3c4d5e6f
