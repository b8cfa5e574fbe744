package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
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

// managedResource is what every resource of the provider implements beyond
// resource.Resource: it is configured with the provider's data, imported by
// id, has an identity, and takes part in the plan (ModifyPlan). Each resource
// asserts it once (var _ managedResource = ...), with the interfaces of its
// own beside it.
type managedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithIdentity
	resource.ResourceWithImportState
	resource.ResourceWithModifyPlan
}

// resourceBase is embedded by every resource and list resource.
type resourceBase struct{ typeBase }

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = b.typeName(req.ProviderTypeName)
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// readState starts a Read: the identity from the prior state, the model m
// from the state; false when Read stops there (a diagnostic, or a provider
// not configured yet, which keeps the state as it is).
func (b *resourceBase) readState(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse, m any) bool {
	identity.FromPriorState(ctx, req, resp)
	resp.Diagnostics.Append(codec.Get(ctx, req.State, m)...)
	return !resp.Diagnostics.HasError() && b.data.Configured()
}

// planForCreate starts a Create: the planned model into plan; false when
// Create stops there, a configuration refused at plan under a test command
// (destroyrun.Refused: nothing written) among them.
func (b *resourceBase) planForCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse, plan any) bool {
	if destroyrun.Refused(ctx, b.typeName(providerTypeName), req.Config, &resp.Diagnostics) || !requireClient(b.data, &resp.Diagnostics) {
		return false
	}
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, plan)...)
	return !resp.Diagnostics.HasError()
}

// planAndState starts an Update: the planned model into plan, the prior one
// into state; false when Update stops there, a configuration refused at plan
// under a test command (destroyrun.Refused: nothing written) among them.
func (b *resourceBase) planAndState(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse, plan, state any) bool {
	if !requireClient(b.data, &resp.Diagnostics) || destroyrun.Refused(ctx, b.typeName(providerTypeName), req.Config, &resp.Diagnostics) {
		return false
	}
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, plan)...)
	resp.Diagnostics.Append(codec.Get(ctx, req.State, state)...)
	return !resp.Diagnostics.HasError()
}

// planStateAndConfig is planAndState for an Update that also needs the
// configuration (write-only values are only there): into config.
func (b *resourceBase) planStateAndConfig(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse, plan, state, config any) bool {
	if !b.planAndState(ctx, req, resp, plan, state) {
		return false
	}
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, config)...)
	return !resp.Diagnostics.HasError()
}

// deleteState starts a Delete: the attributes it needs from the state into
// m; false when Delete stops there.
func (b *resourceBase) deleteState(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse, m any, attrs ...string) bool {
	if !requireClient(b.data, &resp.Diagnostics) {
		return false
	}
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, m, attrs...)...)
	return !resp.Diagnostics.HasError()
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
