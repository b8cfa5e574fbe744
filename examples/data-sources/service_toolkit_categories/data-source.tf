data "service_toolkit_categories" "all" {}

output "category_names" {
  value = data.service_toolkit_categories.all.categories[*].name
}
