package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const mcpServerType = "service_mcp_server"

var (
	_ resource.Resource                   = (*mcpServerResource)(nil)
	_ resource.ResourceWithConfigure      = (*mcpServerResource)(nil)
	_ resource.ResourceWithImportState    = (*mcpServerResource)(nil)
	_ resource.ResourceWithIdentity       = (*mcpServerResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*mcpServerResource)(nil)
	_ resource.ResourceWithValidateConfig = (*mcpServerResource)(nil)
)

// mcpServerNameRe is the service's rule for MCP server names.
var mcpServerNameRe = regexp.MustCompile(`^[a-zA-Z0-9- ]+$`)

// toolSlugRe matches tool slugs: upper snake case, prefixed by the toolkit.
var toolSlugRe = regexp.MustCompile(`^[A-Z0-9]+(_[A-Z0-9]+)+$`)

// NewMCPServerResource returns the service_mcp_server resource.
func NewMCPServerResource() resource.Resource {
	return &mcpServerResource{}
}

type mcpServerResource struct {
	data *ProviderData
}

type mcpServerModel struct {
	ID                    types.String `tfsdk:"id"`
	Name                  types.String `tfsdk:"name"`
	AuthConfigIDs         types.Set    `tfsdk:"auth_config_ids"`
	AllowedTools          types.Set    `tfsdk:"allowed_tools"`
	NoAuthToolkits        types.Set    `tfsdk:"no_auth_toolkits"`
	ManagedAuthViaService types.Bool   `tfsdk:"managed_auth_via_service"`
	MCPURL                types.String `tfsdk:"mcp_url"`
	Toolkits              types.Set    `tfsdk:"toolkits"`
	CreatedAt             types.String `tfsdk:"created_at"`
	UpdatedAt             types.String `tfsdk:"updated_at"`
}

func (r *mcpServerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mcp_server"
}

func mcpServerNameValidators() []validator.String {
	return []validator.String{
		stringvalidator.LengthBetween(4, 30),
		stringvalidator.RegexMatches(mcpServerNameRe, "must contain only letters, digits, spaces and hyphens"),
	}
}

// IdentitySchema: the MCP server's identity is its id (see package identity).
func (r *mcpServerResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("MCP server", "6f1c2c9e-0000-4000-8000-000000000000")
}

func (r *mcpServerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An MCP server: one endpoint through which MCP clients (Cursor, Claude, agents) use the " +
			"tools of one or more toolkits, authenticated with the project's auth configs.\n\n" +
			"Checks (reads only, each object once per provider run; tools at the toolkit version the provider is " +
			"configured with). At plan: `name` must not be another server's of the project (when it is known and " +
			"new or changed); each auth config id known at plan must exist; `no_auth_toolkits` must exist and need " +
			"no authentication. `allowed_tools`, at plan when every auth config id is known: each tool must be a " +
			"tool of one of the server's toolkits. When some ids are not known at plan (auth configs created in the " +
			"same apply), a tool is refused at plan when its prefix names a catalog toolkit (`GITHUB_` names " +
			"`github`, `GITHUB_APP_` names `github_app`: the longest slug wins) and none of the toolkits it names has " +
			"the tool; whether each tool belongs to the server's toolkits is then checked at apply, before the " +
			"server is written. Every attribute changes in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The MCP server id (a UUID), used for import.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the server: 4 to 30 letters, digits, spaces and hyphens, unique in the " +
					"project.",
				Required: true,
				// Not blank nor padded: only when naming a new server (the data
				// source still finds one named so elsewhere).
				Validators: append(mcpServerNameValidators(), validators.DisplayName()),
			},
			"auth_config_ids": schema.SetAttribute{
				MarkdownDescription: "Auth configs (`ac_...`) whose toolkits the server serves, usually one per " +
					"toolkit. May be empty only when `no_auth_toolkits` is set.",
				Required:    true,
				ElementType: types.StringType,
				Validators:  []validator.Set{setvalidator.ValueStringsAre(validators.AuthConfigID())},
			},
			"allowed_tools": schema.SetAttribute{
				MarkdownDescription: "Tool slugs (upper snake case, e.g. `GITHUB_CREATE_AN_ISSUE`) the server exposes; each " +
					"must belong to one of the server's toolkits. When not set, every tool of those toolkits is exposed " +
					"and this attribute shows the service's list.",
				Optional:    true,
				Computed:    true,
				ElementType: types.StringType,
				Validators: []validator.Set{
					setvalidator.ValueStringsAre(stringvalidator.RegexMatches(toolSlugRe,
						"must be a tool slug in upper snake case prefixed by its toolkit, e.g. GITHUB_CREATE_AN_ISSUE")),
					// The service takes an empty list for "every tool": `[]` would
					// plan no tools and read back all of them.
					validators.NonEmptySet("list at least one tool, or leave allowed_tools out to expose every tool of the server's toolkits"),
				},
			},
			"no_auth_toolkits": schema.SetAttribute{
				MarkdownDescription: "Slugs of toolkits that need no authentication (scheme `NO_AUTH`) to serve as well.",
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          []validator.Set{setvalidator.ValueStringsAre(validators.CanonicalToolkitSlug())},
			},
			"managed_auth_via_service": schema.BoolAttribute{
				MarkdownDescription: "Whether the service manages the users' authentication for this server. " +
					"Defaults to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"mcp_url": schema.StringAttribute{
				MarkdownDescription: "The server's MCP URL; clients add `user_id` or `connected_account_id` as a query " +
					"parameter.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"toolkits": schema.SetAttribute{
				MarkdownDescription: "Slugs of the toolkits the server serves: those of the auth configs and " +
					"`no_auth_toolkits`.",
				Computed:    true,
				ElementType: types.StringType,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the server was created (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the server was last changed (ISO 8601).",
				Computed:            true,
			},
		},
	}
}

func (r *mcpServerResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig requires at least one auth config or NO_AUTH toolkit.
func (r *mcpServerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg mcpServerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.AuthConfigIDs.IsUnknown() || cfg.NoAuthToolkits.IsUnknown() {
		return
	}
	if len(cfg.AuthConfigIDs.Elements()) == 0 && len(cfg.NoAuthToolkits.Elements()) == 0 {
		resp.Diagnostics.AddAttributeError(path.Root("auth_config_ids"), "No toolkits to serve",
			"Attribute auth_config_ids is empty and no_auth_toolkits is not set: an MCP server needs at least one auth "+
				"config (or one toolkit that needs no authentication in no_auth_toolkits).")
	}
}

// setStrings returns the known elements of a set of strings, sorted (none
// when the set is null or unknown).
func setStrings(s types.Set) []string {
	var out []string
	for _, v := range s.Elements() {
		if e, ok := v.(types.String); ok && !e.IsNull() && !e.IsUnknown() {
			out = append(out, e.ValueString())
		}
	}
	slices.Sort(out)
	return out
}

// setFullyKnown reports a set whose elements are all known.
func setFullyKnown(s types.Set) bool {
	return !s.IsUnknown() && len(setStrings(s)) == len(s.Elements())
}

// stringSet returns the values as a set, or null when there are none and
// keepNull (an optional attribute the configuration leaves out).
func stringSet(vals []string, keepNull bool) types.Set {
	if len(vals) == 0 && keepNull {
		return types.SetNull(types.StringType)
	}
	elems := make([]attr.Value, 0, len(vals))
	for _, v := range vals {
		elems = append(elems, types.StringValue(v))
	}
	return types.SetValueMust(types.StringType, elems)
}

func (r *mcpServerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan mcpServerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	managed := plan.ManagedAuthViaService.ValueBool()
	body := client.CreateMCPServerRequest{
		Name:                   plan.Name.ValueString(),
		AuthConfigIDs:          setStrings(plan.AuthConfigIDs),
		NoAuthApps:             setStrings(plan.NoAuthToolkits),
		ManagedAuthViaComposio: &managed,
	}
	if !plan.AllowedTools.IsUnknown() {
		body.AllowedTools = setStrings(plan.AllowedTools)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m, err := r.data.Client.CreateMCPServer(ctx, body)
	if err != nil {
		addMCPServerWriteError(&resp.Diagnostics, "creating", "", body.Name, err)
		return
	}
	tflog.Debug(ctx, "created MCP server", map[string]any{"id": m.ID, "name": m.Name})
	resp.Diagnostics.Append(plan.fill(ctx, m, toolkitsExcept(m.Toolkits, body.NoAuthApps))...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(recordAllowedToolsConfigured(ctx, req.Config, resp.Private)...)
}

// addMCPServerWriteError reports a failed create or update; a name already
// taken is attached to name.
func addMCPServerWriteError(diags *diag.Diagnostics, op, id, name string, err error) {
	if client.IsConflict(err) {
		diagnostics.AddAPIErrorAt(diags, path.Root("name"), op, mcpServerType, id, err)
		diags.AddAttributeError(path.Root("name"), "MCP server name taken",
			fmt.Sprintf("Attribute name: the project already has an MCP server named %q. Choose another name, or import "+
				"the existing server (the service_mcp_server data source finds it by name).", name))
		return
	}
	diagnostics.AddAPIError(diags, op, mcpServerType, id, err)
}

func (r *mcpServerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	identity.FromPriorState(ctx, req, resp)
	var state mcpServerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !r.data.Configured() {
		return // keep the prior state; see ProviderData.Configured
	}
	id := state.ID.ValueString()
	m, err := r.data.Client.GetMCPServer(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, mcpServerType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fillRead(ctx, r.data.Cache, m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

// fillRead is the Read after its GET: it updates m (the prior state; after
// an import only its id) from the service's server s. The
// service_mcp_server list resource applies it to each listed server.
func (m *mcpServerModel) fillRead(ctx context.Context, cache *lookup.SchemaCache, s *client.MCPServer) diag.Diagnostics {
	var diags diag.Diagnostics
	// The toolkits of the auth configs are known from the prior state while
	// the auth configs stay the same (one GET per refresh); after an import
	// or when the auth configs changed outside Terraform they are read.
	prior := setStrings(m.AuthConfigIDs)
	var acToolkits []string
	if !m.AuthConfigIDs.IsNull() && slices.Equal(prior, sortedCopy(s.AuthConfigIDs)) {
		acToolkits = toolkitsExcept(setStrings(m.Toolkits),
			setStrings(m.NoAuthToolkits))
	} else {
		for _, acID := range s.AuthConfigIDs {
			slug, err := cache.AuthConfigToolkit(ctx, acID)
			if err != nil && !client.IsNotFound(err) {
				diagnostics.AddAPIError(&diags, "reading the auth configs of", mcpServerType, s.ID, err)
				return diags
			}
			acToolkits = append(acToolkits, slug)
		}
	}
	diags.Append(m.fill(ctx, s, acToolkits)...)
	return diags
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// recordAllowedToolsConfigured remembers in private state whether the
// configuration sets allowed_tools.
func recordAllowedToolsConfigured(ctx context.Context, cfg tfsdk.Config, p privateSetter) diag.Diagnostics {
	var m mcpServerModel
	diags := codec.GetAttributes(ctx, cfg, &m, "allowed_tools")
	if diags.HasError() {
		return diags
	}
	v := "false"
	if !m.AllowedTools.IsNull() {
		v = "true"
	}
	return p.SetKey(ctx, privateKeyAllowedTools, []byte(v))
}

// toolkitsExcept returns the toolkits that are not in except.
func toolkitsExcept(toolkits, except []string) []string {
	var out []string
	for _, t := range toolkits {
		if !slices.Contains(except, t) {
			out = append(out, t)
		}
	}
	return out
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func (r *mcpServerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan, state mcpServerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(codec.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	name := plan.Name.ValueString()
	managed := plan.ManagedAuthViaService.ValueBool()
	acIDs := setStrings(plan.AuthConfigIDs)
	noAuth := setStrings(plan.NoAuthToolkits)
	body := client.UpdateMCPServerRequest{Name: &name, ManagedAuthViaComposio: &managed, AuthConfigIDs: acIDs}
	if body.AuthConfigIDs == nil {
		body.AuthConfigIDs = []string{}
	}
	toolkitsChanged := !plan.AuthConfigIDs.Equal(state.AuthConfigIDs) || !plan.NoAuthToolkits.Equal(state.NoAuthToolkits)
	if toolkitsChanged {
		// The service takes the NO_AUTH toolkits as part of the full toolkit
		// list: those of the auth configs and the NO_AUTH ones.
		toolkits := slices.Clone(noAuth)
		for _, acID := range acIDs {
			slug, err := r.data.Cache.AuthConfigToolkit(ctx, acID)
			if err != nil {
				diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("auth_config_ids"), "reading auth config "+acID+" for", mcpServerType, id, err)
				return
			}
			if !slices.Contains(toolkits, slug) {
				toolkits = append(toolkits, slug)
			}
		}
		body.Toolkits = toolkits
	}
	switch {
	case !plan.AllowedTools.IsUnknown():
		body.AllowedTools = setStrings(plan.AllowedTools)
	case toolkitsChanged:
		body.AllowedTools = []string{} // every tool of the new toolkits
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m, err := r.data.Client.UpdateMCPServer(ctx, id, body)
	if err != nil {
		addMCPServerWriteError(&resp.Diagnostics, "updating", id, name, err)
		return
	}
	resp.Diagnostics.Append(plan.fill(ctx, m, toolkitsExcept(m.Toolkits, noAuth))...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(recordAllowedToolsConfigured(ctx, req.Config, resp.Private)...)
}

func (r *mcpServerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var state mcpServerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	diagnostics.AddDeleteError(&resp.Diagnostics, mcpServerType, id, r.data.Client.DeleteMCPServer(ctx, id))
}

func (r *mcpServerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !importid.UUIDRe.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Expected an MCP server id, a UUID such as 6f1c2c9e-0000-4000-8000-000000000000 (the "+
				"service_mcp_servers data source lists them), got %q.", id))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), types.StringValue(id))...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
}

// fill copies what the service reports into m. acToolkits are the
// toolkits of the server's auth configs: the other toolkits are its NO_AUTH
// toolkits.
//
//nolint:unparam // the one shape of fill (see package codec), though this one reports nothing
func (m *mcpServerModel) fill(_ context.Context, s *client.MCPServer, acToolkits []string) diag.Diagnostics {
	m.ID = types.StringValue(s.ID)
	m.Name = types.StringValue(s.Name)
	m.AuthConfigIDs = stringSet(s.AuthConfigIDs, false)
	m.AllowedTools = stringSet(s.AllowedTools, false)
	m.NoAuthToolkits = stringSet(toolkitsExcept(s.Toolkits, acToolkits), m.NoAuthToolkits.IsNull() || m.NoAuthToolkits.IsUnknown())
	m.ManagedAuthViaService = types.BoolValue(s.ManagedAuthViaComposio)
	m.MCPURL = types.StringValue(s.MCPURL)
	m.Toolkits = stringSet(s.Toolkits, false)
	m.CreatedAt = types.StringValue(s.CreatedAt)
	m.UpdatedAt = types.StringValue(s.UpdatedAt)
	return nil
}
