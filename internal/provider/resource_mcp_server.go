package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

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
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/planmodifiers"
	"github.com/integration-service/terraform-provider-service/internal/provider/suggest"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const mcpServerType = "service_mcp_server"

var (
	_ managedResource                     = (*mcpServerResource)(nil)
	_ resource.ResourceWithValidateConfig = (*mcpServerResource)(nil)
)

// mcpServerNameRe is the service's rule for MCP server names.
var mcpServerNameRe = regexp.MustCompile(`^[a-zA-Z0-9- ]+$`)

// toolSlugRe matches tool slugs: upper snake case, prefixed by the toolkit.
var toolSlugRe = regexp.MustCompile(`^[A-Z0-9]+(_[A-Z0-9]+)+$`)

// NewMCPServerResource returns the service_mcp_server resource.
func NewMCPServerResource() resource.Resource {
	return &mcpServerResource{resourceBase{typeNamed("mcp_server")}}
}

type mcpServerResource struct{ resourceBase }

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
			"id": idAttribute("The MCP server id (a UUID), used for import."),
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
					"and this attribute shows the service's list; `[]` is refused (leave the attribute out for every tool).",
				Optional:    true,
				Computed:    true,
				ElementType: types.StringType,
				Validators: []validator.Set{
					setvalidator.ValueStringsAre(stringvalidator.RegexMatches(toolSlugRe,
						"must be a tool slug in upper snake case prefixed by its toolkit, e.g. GITHUB_CREATE_AN_ISSUE")),
					// The service takes an empty list for "every tool": `[]` would
					// plan no tools and read back all of them.
					setvalidator.SizeAtLeast(1),
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
	var plan mcpServerModel
	if !r.planForCreate(ctx, req, resp, &plan) {
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
	var state mcpServerModel
	if !r.readState(ctx, req, resp, &state) {
		return
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
func (m *mcpServerModel) fillRead(ctx context.Context, cache *lookup.ObjectCache, s *client.MCPServer) diag.Diagnostics {
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
	var plan, state mcpServerModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
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
	var state mcpServerModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id") {
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

// ModifyPlan checks, without writing anything: that the name is free (when
// the server is created or renamed), that the known auth configs exist, that
// the NO_AUTH toolkits exist and need no authentication, and the allowed
// tools (checkAllowedTools: fully when every auth config id is known, else
// each tool against the toolkit its prefix names). Objects are read through
// the object cache: once per provider run. Auth configs created in the same
// apply are checked in the final plan Terraform makes during apply, before
// Create. It plans toolkits as known when every auth config id is known, and
// keeps the service's allowed_tools when the configuration leaves them out
// and the toolkits do not change.
func (r *mcpServerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, mcpServerType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

func (r *mcpServerResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planUnchanged(req) {
		// Nothing to check or fill in, unless allowed_tools was just removed
		// from the configuration (planned below as every tool).
		var cfg mcpServerModel
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "allowed_tools")...)
		if resp.Diagnostics.HasError() || !cfg.AllowedTools.IsNull() || !wasConfigured(ctx, req.Private) {
			return
		}
	}
	var plan mcpServerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *mcpServerModel
	if !req.State.Raw.IsNull() {
		state = &mcpServerModel{}
		resp.Diagnostics.Append(codec.Get(ctx, req.State, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	var cfg mcpServerModel // all ModifyPlan reads of the configuration
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "allowed_tools")...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfgTools := cfg.AllowedTools
	if r.data.Configured() {
		r.checkNameFree(ctx, plan, state, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	sameToolkits := state != nil && state.AuthConfigIDs.Equal(plan.AuthConfigIDs) && state.NoAuthToolkits.Equal(plan.NoAuthToolkits)
	if sameToolkits {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("toolkits"), state.Toolkits)...)
		if cfgTools.IsNull() {
			if wasConfigured(ctx, req.Private) && r.data.Configured() {
				// allowed_tools removed from the configuration: every tool of the toolkits.
				r.planEveryTool(ctx, setStrings(state.Toolkits), state.AllowedTools, resp)
				return
			}
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("allowed_tools"), state.AllowedTools)...)
			return
		}
		if state.AllowedTools.Equal(cfgTools) {
			return // nothing the service checks changes
		}
	}
	if !r.data.Configured() || cfgTools.IsUnknown() {
		return
	}
	r.data.checkToolkitVersionKeys(ctx, &resp.Diagnostics)
	// auth_config_ids (or some of its ids) and no_auth_toolkits may be
	// unknown: auth configs created in the same apply. What is known is
	// checked now; the rest in the final plan Terraform makes during apply,
	// before anything is written.
	toolkits, allKnown := r.planToolkits(ctx, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	allKnown = allKnown && setFullyKnown(plan.NoAuthToolkits)
	if allKnown {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("toolkits"), stringSet(toolkits, false))...)
	}
	if !cfgTools.IsNull() {
		r.checkAllowedTools(ctx, setStrings(cfgTools), toolkits, allKnown, &resp.Diagnostics)
	}
}

// checkNameFree refuses, at plan, a name another MCP server of the project
// already has (the service refuses it at create or update; names compare
// without case). It runs when the server is created or renamed and the name
// is known; a failed list leaves the check to the write.
func (r *mcpServerResource) checkNameFree(ctx context.Context, plan mcpServerModel, state *mcpServerModel, diags *diag.Diagnostics) {
	if plan.Name.IsUnknown() || plan.Name.IsNull() {
		return
	}
	name := plan.Name.ValueString()
	selfID := ""
	if state != nil {
		if strings.EqualFold(state.Name.ValueString(), name) {
			return
		}
		selfID = state.ID.ValueString()
	}
	list, err := r.data.Cache.MCPServers(ctx) // one list per provider process, however many servers
	if err != nil {
		tflog.Debug(ctx, "MCP server name not checked at plan time", map[string]any{"name": name, "error": err.Error()})
		return
	}
	for _, m := range list {
		if m.ID != selfID && strings.EqualFold(m.Name, name) {
			diags.AddAttributeError(path.Root("name"), "MCP server name taken",
				fmt.Sprintf("Attribute name: the project already has an MCP server named %q (id %s). Choose another "+
					"name, or manage the existing server.\n\n%s", m.Name, m.ID, diagnostics.ImportHint(mcpServerType, m.ID)))
			return
		}
	}
}

// planToolkits returns the toolkits of the known auth configs and the NO_AUTH
// toolkits, and whether every auth config id is known.
func (r *mcpServerResource) planToolkits(ctx context.Context, plan mcpServerModel, diags *diag.Diagnostics) ([]string, bool) {
	attrIDs := path.Root("auth_config_ids")
	var toolkits []string
	allKnown := !plan.AuthConfigIDs.IsUnknown()
	for _, v := range plan.AuthConfigIDs.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			allKnown = false
			continue
		}
		id := s.ValueString()
		slug, err := r.data.Cache.AuthConfigToolkit(ctx, id)
		switch {
		case client.IsNotFound(err):
			diags.AddAttributeError(attrIDs.AtSetValue(s), "Unknown auth config",
				fmt.Sprintf("Attribute auth_config_ids: the project has no auth config %q (the service_auth_configs data "+
					"source lists them).", id))
			continue
		case err != nil:
			diagnostics.AddAPIErrorAt(diags, attrIDs, "reading auth config "+id+" for", mcpServerType, "", err)
			continue
		}
		if !slices.Contains(toolkits, slug) {
			toolkits = append(toolkits, slug)
		}
	}
	attrNoAuth := path.Root("no_auth_toolkits")
	for _, slug := range setStrings(plan.NoAuthToolkits) {
		tk, err := r.data.Cache.Toolkit(ctx, slug)
		if err != nil {
			diagnostics.AddLookupErrorSuggest(diags, attrNoAuth.AtSetValue(types.StringValue(slug)), "toolkit", slug, r.data.VersionFor(slug), err,
				func() string { return r.data.suggestToolkit(ctx, slug) })
			continue
		}
		if _, ok := tk.AuthDetail("NO_AUTH"); !ok {
			modes := make([]string, 0, len(tk.AuthConfigDetails))
			for _, d := range tk.AuthConfigDetails {
				modes = append(modes, d.Mode)
			}
			diags.AddAttributeError(attrNoAuth.AtSetValue(types.StringValue(slug)), "Toolkit needs authentication",
				fmt.Sprintf("Attribute no_auth_toolkits: toolkit %q needs authentication (schemes: %s); create a "+
					"service_auth_config for it and list it in auth_config_ids instead.", slug, strings.Join(modes, ", ")))
			continue
		}
		if !slices.Contains(toolkits, tk.Slug) {
			toolkits = append(toolkits, tk.Slug)
		}
	}
	return toolkits, allKnown
}

// checkAllowedTools reports each tool that no toolkit of the server has: an
// unknown tool, or (when every toolkit is known) a tool of another toolkit.
//
// A tool's slug names its toolkit: GITHUB_CREATE_AN_ISSUE is a tool of
// github, GITHUB_APP_CREATE_ISSUE one of github_app (slugs contain
// underscores, so every toolkit whose upper-cased slug and "_" prefix the
// tool is a candidate, longest first). When some auth config ids are unknown
// (auth configs created in the same apply), a tool no known toolkit serves is
// still refused at plan when its prefix names catalog toolkits and none of
// them has the tool at the configured version; it is left to apply when the
// prefix names no catalog toolkit, names a custom toolkit (CUSTOM_..., which
// the same apply may create), or a toolkit's tools cannot be read.
func (r *mcpServerResource) checkAllowedTools(ctx context.Context, tools, toolkits []string, allKnown bool, diags *diag.Diagnostics) {
	attr := path.Root("allowed_tools")
	served := map[string]string{} // tool slug -> toolkit
	var servedSlugs []string
	for _, tk := range toolkits {
		list, err := r.data.Cache.ToolkitTools(ctx, tk)
		if err != nil {
			diagnostics.AddAPIErrorAt(diags, attr, "listing the tools of toolkit "+tk+" for", mcpServerType, "", err)
			return
		}
		for _, t := range list {
			served[t.Slug] = tk
			servedSlugs = append(servedSlugs, t.Slug)
		}
	}
	slices.Sort(servedSlugs)
	for _, tool := range tools {
		if _, ok := served[tool]; ok {
			continue
		}
		at := attr.AtSetValue(types.StringValue(tool))
		if !allKnown && strings.HasPrefix(tool, "CUSTOM_") {
			continue // a custom toolkit the same apply may create
		}
		// The candidate toolkits the slug names: the server's and, read at
		// most once per provider process, the catalog's.
		cands := toolkitsPrefixing(tool, append(slices.Clone(toolkits), r.data.toolkitSlugs(ctx)...))
		owner, candTools, allRead := "", []string(nil), len(cands) > 0
		for _, c := range cands {
			if slices.Contains(toolkits, c) {
				for _, s := range servedSlugs {
					if served[s] == c {
						candTools = append(candTools, s)
					}
				}
				continue
			}
			list, err := r.data.Cache.ToolkitTools(ctx, c)
			if err != nil || len(list) == 0 {
				allRead = false
				continue
			}
			for _, t := range list {
				candTools = append(candTools, t.Slug)
				if t.Slug == tool && owner == "" {
					owner = c
				}
			}
		}
		if !allKnown {
			if owner != "" || !allRead {
				continue // its toolkit may be one of the auth configs created in this apply
			}
			slices.Sort(candTools)
			diags.AddAttributeError(at, "Unknown tool",
				fmt.Sprintf("Attribute allowed_tools: toolkit %q has no tool %q at version %s.%s (The tool's prefix "+
					"names toolkit %q; the service_tools data source lists a toolkit's tools.)", cands[0], tool,
					r.data.VersionFor(cands[0]), suggest.DidYouMean(tool, candTools), cands[0]))
			continue
		}
		if owner != "" {
			diags.AddAttributeError(at, "Tool of another toolkit",
				fmt.Sprintf("Attribute allowed_tools: tool %q belongs to toolkit %q, which none of auth_config_ids or "+
					"no_auth_toolkits serves (the server's toolkits: %s).", tool, owner, strings.Join(sortedCopy(toolkits), ", ")))
			continue
		}
		if len(cands) > 0 && slices.Contains(toolkits, cands[0]) {
			own := cands[0]
			ownTools := slices.DeleteFunc(slices.Clone(servedSlugs), func(s string) bool { return served[s] != own })
			diags.AddAttributeError(at, "Unknown tool",
				fmt.Sprintf("Attribute allowed_tools: toolkit %q has no tool %q at version %s.%s (The service_tools "+
					"data source lists a toolkit's tools.)", own, tool, r.data.VersionFor(own), suggest.DidYouMean(tool, ownTools)))
			continue
		}
		diags.AddAttributeError(at, "Unknown tool",
			fmt.Sprintf("Attribute allowed_tools: no toolkit of the server (%s) has a tool %q.%s", strings.Join(sortedCopy(toolkits), ", "),
				tool, suggest.DidYouMean(tool, servedSlugs)))
	}
}

// toolkitsPrefixing returns the distinct slugs (lower case) among toolkits
// whose upper-cased slug followed by "_" prefixes tool, longest first.
func toolkitsPrefixing(tool string, toolkits []string) []string {
	var out []string
	for _, tk := range toolkits {
		tk = strings.ToLower(tk)
		if tk != "" && strings.HasPrefix(tool, strings.ToUpper(tk)+"_") && !slices.Contains(out, tk) {
			out = append(out, tk)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// privateKeyAllowedTools marks, in private state, a server whose allowed_tools
// came from the configuration (so removing them means every tool again).
const privateKeyAllowedTools = "allowed_tools_configured"

func wasConfigured(ctx context.Context, p planmodifiers.PrivateGetter) bool {
	if p == nil {
		return false
	}
	v, d := p.GetKey(ctx, privateKeyAllowedTools)
	return !d.HasError() && string(v) == "true"
}

// planEveryTool plans allowed_tools as every tool of the toolkits (the prior
// value stays when a list cannot be read), and updated_at as unknown when
// that changes them.
func (r *mcpServerResource) planEveryTool(ctx context.Context, toolkits []string, prior types.Set, resp *resource.ModifyPlanResponse) {
	var all []string
	for _, tk := range toolkits {
		list, err := r.data.Cache.ToolkitTools(ctx, tk)
		if err != nil {
			return
		}
		for _, t := range list {
			all = append(all, t.Slug)
		}
	}
	every := stringSet(all, false)
	planned := map[string]attr.Value{"allowed_tools": every}
	if !every.Equal(prior) {
		planned["updated_at"] = types.StringUnknown()
	}
	resp.Diagnostics.Append(codec.Replace(ctx, mcpServerAttrTypes(), &resp.Plan.Raw, planned)...)
}

// mcpServerAttrTypes are the framework types of the top-level attributes,
// for codec.Replace (planEveryTool writes two at once).
var mcpServerAttrTypes = sync.OnceValue(func() codec.Types {
	var resp resource.SchemaResponse
	(&mcpServerResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return codec.TypesOf(mcpServerType, resp.Schema)
})
