package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// What every Terraform type of the provider embeds, one base per kind of the
// framework (a list resource embeds resourceBase, whose Metadata and
// Configure the framework's list.ListResource shares): Metadata names the
// type, Configure keeps the provider's data. A type built with
// typeNamed("auth_config") is service_auth_config and needs the project's API
// key; orgTypeNamed marks the organization's types (projects), which need the
// organization's key.

// typeBase is the part the four bases share.
type typeBase struct {
	name string // the type's name after the provider's and "_"
	org  bool   // configured with the organization's key
	data *ProviderData
}

func typeNamed(name string) typeBase { return typeBase{name: name} }

func orgTypeNamed(name string) typeBase { return typeBase{name: name, org: true} }

func (b *typeBase) typeName(providerTypeName string) string { return providerTypeName + "_" + b.name }

func (b *typeBase) configure(providerData any, diags *diag.Diagnostics) {
	if b.org {
		b.data = orgProviderDataFrom(providerData, diags)
		return
	}
	b.data = providerDataFrom(providerData, diags)
}

// resourceBase is embedded by every resource and list resource.
type resourceBase struct{ typeBase }

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.typeName(req.ProviderTypeName)
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// dataSourceBase is embedded by every data source.
type dataSourceBase struct{ typeBase }

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = b.typeName(req.ProviderTypeName)
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// ephemeralBase is embedded by every ephemeral resource.
type ephemeralBase struct{ typeBase }

func (b *ephemeralBase) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = b.typeName(req.ProviderTypeName)
}

func (b *ephemeralBase) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// actionBase is embedded by every action.
type actionBase struct{ typeBase }

func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = b.typeName(req.ProviderTypeName)
}

func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}
