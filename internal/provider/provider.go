// Package provider implements the Terraform provider for the integration
// service on top of terraform-plugin-framework.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// RegistryAddress is the provider's address in the Terraform Registry.
const RegistryAddress = "registry.terraform.io/integration-service/service"

// ServiceProvider is the provider implementation.
type ServiceProvider struct {
	version string
}

var _ provider.Provider = (*ServiceProvider)(nil)

// New returns a constructor for the provider at the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &ServiceProvider{version: version} }
}

// Metadata names the provider.
func (p *ServiceProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "service"
	resp.Version = p.version
}

// Schema describes the provider configuration.
func (p *ServiceProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

// Configure builds the API client.
func (p *ServiceProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

// Resources lists the managed resource types.
func (p *ServiceProvider) Resources(_ context.Context) []func() resource.Resource {
	return nil
}

// DataSources lists the data source types.
func (p *ServiceProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}
