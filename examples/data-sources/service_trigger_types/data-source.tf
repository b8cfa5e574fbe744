data "service_trigger_types" "stripe" {
  toolkits = ["stripe"]
}

output "stripe_trigger_slugs" {
  value = data.service_trigger_types.stripe.trigger_types[*].slug
}
