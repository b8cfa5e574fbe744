package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/suggest"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const toolRouterSessionType = "service_tool_router_session"

var (
	_ managedResource                     = (*toolRouterSessionResource)(nil)
	_ resource.ResourceWithValidateConfig = (*toolRouterSessionResource)(nil)
)

// sessionIDRe is a tool-router session id.
var sessionIDRe = regexp.MustCompile(`^trs_[A-Za-z0-9_-]+$`)

// sessionTagValues are the MCP tool annotation hints a session filters on.
var sessionTagValues = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// sessionSandboxSizes are the workbench's compute tiers.
var sessionSandboxSizes = []string{"standard", "medium", "large", "xlarge"}

// NewToolRouterSessionResource returns the service_tool_router_session resource.
func NewToolRouterSessionResource() resource.Resource {
	return &toolRouterSessionResource{resourceBase{typeNamed("tool_router_session")}}
}

type toolRouterSessionResource struct{ resourceBase }

type toolRouterSessionModel struct {
	ID                types.String `tfsdk:"id"`
	UserID            types.String `tfsdk:"user_id"`
	Toolkits          types.Set    `tfsdk:"toolkits"`
	DisabledToolkits  types.Set    `tfsdk:"disabled_toolkits"`
	AuthConfigs       types.Map    `tfsdk:"auth_configs"`
	ConnectedAccounts types.Map    `tfsdk:"connected_accounts"`
	ManageConnections types.Object `tfsdk:"manage_connections"`
	Tools             types.Map    `tfsdk:"tools"`
	Tags              types.Set    `tfsdk:"tags"`
	DisabledTags      types.Set    `tfsdk:"disabled_tags"`
	Workbench         types.Object `tfsdk:"workbench"`
	MultiAccount      types.Object `tfsdk:"multi_account"`
	SessionConfigID   types.String `tfsdk:"session_config_id"`
	MCPURL            types.String `tfsdk:"mcp_url"`
	MCPType           types.String `tfsdk:"mcp_type"`
	ConfigVersion     types.Int64  `tfsdk:"config_version"`
	CreatedAt         types.String `tfsdk:"created_at"`
}

// The attribute types of the nested attributes.
var (
	sessionMCAttrTypes = map[string]attr.Type{
		"enabled": types.BoolType, "callback_url": types.StringType, "wait_for_connections": types.BoolType, "connection_removal": types.BoolType,
	}
	sessionWBAttrTypes = map[string]attr.Type{
		"enabled": types.BoolType, "proxy_execution": types.BoolType, "auto_offload_threshold": types.Int64Type, "sandbox_size": types.StringType,
	}
	sessionMAAttrTypes = map[string]attr.Type{
		"enabled": types.BoolType, "max_accounts_per_toolkit": types.Int64Type, "require_explicit_selection": types.BoolType,
	}
	sessionToolRuleAttrTypes = map[string]attr.Type{
		"enabled": types.SetType{ElemType: types.StringType}, "disabled": types.SetType{ElemType: types.StringType},
		"tags": types.SetType{ElemType: types.StringType}, "disabled_tags": types.SetType{ElemType: types.StringType},
	}
)

// The service's defaults of the nested attributes (its documents; the
// create answer carries them when the request leaves them out). A member
// left out of the configuration is kept null in state while the service
// answers its default, and shows as a change when it answers another value.
var (
	sessionMCDefaults = map[string]attr.Value{
		"enabled": types.BoolValue(true), "wait_for_connections": types.BoolValue(false), "connection_removal": types.BoolValue(true),
	}
	sessionWBDefaults = map[string]attr.Value{
		"enabled": types.BoolValue(true), "proxy_execution": types.BoolValue(true), "auto_offload_threshold": types.Int64Value(20000),
		"sandbox_size": types.StringValue("standard"),
	}
)

// IdentitySchema: the session's identity is its id (see package identity).
func (r *toolRouterSessionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("tool-router session", "trs_AbC123dEf456")
}

func sessionTagsValidators() []validator.Set {
	return []validator.Set{setvalidator.ValueStringsAre(stringvalidator.OneOf(sessionTagValues...))}
}

func sessionToolSlugs() []validator.Set {
	return []validator.Set{setvalidator.ValueStringsAre(stringvalidator.RegexMatches(toolSlugRe,
		"must be a tool slug in upper snake case prefixed by its toolkit, e.g. GITHUB_CREATE_AN_ISSUE"))}
}

func (r *toolRouterSessionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	policy := []string{"toolkits", "disabled_toolkits", "tools", "tags", "disabled_tags"}
	conflictPaths := func(except string) []path.Expression {
		var out []path.Expression
		for _, a := range policy {
			if a != except {
				out = append(out, path.MatchRoot(a))
			}
		}
		return out
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A tool-router session: one user's tools behind one MCP URL. The session names the " +
			"toolkits the user's agent may use (or every toolkit but some), the auth configs and connected accounts " +
			"it uses for them, which tools of a toolkit it exposes, the tool annotation tags it filters on, the " +
			"connection manager, the workbench and multi-account behaviour, or a saved session config to follow. " +
			"Hand `mcp_url` to the agent's deployment (see the guide \"Giving an agent its tools\").\n\n" +
			"Every attribute but `user_id` and `session_config_id` changes in place (the service's session PATCH; " +
			"`config_version` counts the changes); those two create a new session. The service cannot list " +
			"sessions, so there is no list resource or data source of them: a session is imported by its id " +
			"(`trs_...`), and a create whose outcome is unknown (the connection dropped) is reported instead of " +
			"repeated.\n\n" +
			"Checks at plan, reading only: each toolkit (also the keys of `auth_configs`, `connected_accounts` and " +
			"`tools`) must be in the catalog (a misspelt slug gets the closest one); each auth config must exist and " +
			"be of its key's toolkit; each connected account must exist, be of its key's toolkit, belong to " +
			"`user_id` and not be disabled, and a toolkit pins more than one account only with " +
			"`multi_account.enabled`; each tool of `tools` must be a tool of its toolkit; `session_config_id` must " +
			"name a session config that is not archived. Tags and sandbox sizes are checked against their values " +
			"when the configuration is validated.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The session id (`trs_...`), used for import."),
			"user_id": userIDAttribute("Your application's id of the user whose connected accounts the session uses. " +
				"Changing it creates a new session."),
			"toolkits": schema.SetAttribute{
				MarkdownDescription: "The only toolkits the session enables (slugs). An empty set enables no app " +
					"toolkit (the meta tools only). Leave it and `disabled_toolkits` out for every toolkit.",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Set{
					setvalidator.ValueStringsAre(validators.CanonicalToolkitSlug()),
					setvalidator.ConflictsWith(path.MatchRoot("disabled_toolkits"), path.MatchRoot("session_config_id")),
				},
			},
			"disabled_toolkits": schema.SetAttribute{
				MarkdownDescription: "Every toolkit but these (the service's `disable` form); not with `toolkits`.",
				Optional:            true,
				ElementType:         types.StringType,
				Validators: []validator.Set{
					setvalidator.ValueStringsAre(validators.CanonicalToolkitSlug()),
					setvalidator.ConflictsWith(path.MatchRoot("session_config_id")),
				},
			},
			"auth_configs": schema.MapAttribute{
				MarkdownDescription: "The auth config (`ac_...`) to use per toolkit, keyed by toolkit slug, instead of " +
					"the project's default one.",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Map{
					mapvalidator.KeysAre(validators.CanonicalToolkitSlug()),
					mapvalidator.ValueStringsAre(validators.AuthConfigID()),
				},
			},
			"connected_accounts": schema.MapAttribute{
				MarkdownDescription: "The connected accounts (`ca_...`) to pin per toolkit, keyed by toolkit slug: " +
					"accounts of `user_id`, at most one per toolkit unless `multi_account.enabled`.",
				Optional:    true,
				ElementType: types.SetType{ElemType: types.StringType},
				Validators: []validator.Map{
					mapvalidator.KeysAre(validators.CanonicalToolkitSlug()),
					mapvalidator.ValueSetsAre(setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(validators.ObjectID("ca_"))),
				},
			},
			"manage_connections": schema.SingleNestedAttribute{
				MarkdownDescription: "The connection manager: a tool the agent uses to connect the user's accounts.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{
						MarkdownDescription: "Whether the agent can start connections. The service's default is `true`.",
						Optional:            true,
					},
					"callback_url": schema.StringAttribute{
						MarkdownDescription: "Where the user is sent after connecting an account.",
						Optional:            true,
						Validators:          []validator.String{validators.CallbackURL()},
					},
					"wait_for_connections": schema.BoolAttribute{
						MarkdownDescription: "Whether the agent gets a tool to wait for connections to complete. The " +
							"service's default is `false`.",
						Optional: true,
					},
					"connection_removal": schema.BoolAttribute{
						MarkdownDescription: "Whether the agent can remove connected accounts. The service's default is `true`.",
						Optional:            true,
					},
				},
			},
			"tools": schema.MapNestedAttribute{
				MarkdownDescription: "Per toolkit (keyed by slug), which of its tools the session exposes: exactly one " +
					"of `enabled` (only these), `disabled` (all but these), or a tag filter (`tags` and/or " +
					"`disabled_tags`). Not with `session_config_id`.",
				Optional: true,
				Validators: []validator.Map{
					mapvalidator.KeysAre(validators.CanonicalToolkitSlug()),
					mapvalidator.ConflictsWith(path.MatchRoot("session_config_id")),
				},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"enabled": schema.SetAttribute{
						MarkdownDescription: "Only these tools of the toolkit.", Optional: true, ElementType: types.StringType,
						Validators: sessionToolSlugs(),
					},
					"disabled": schema.SetAttribute{
						MarkdownDescription: "Every tool of the toolkit but these.", Optional: true, ElementType: types.StringType,
						Validators: sessionToolSlugs(),
					},
					"tags": schema.SetAttribute{
						MarkdownDescription: "Only tools carrying one of these tags (overrides the session's `tags` for the toolkit).",
						Optional:            true, ElementType: types.StringType, Validators: sessionTagsValidators(),
					},
					"disabled_tags": schema.SetAttribute{
						MarkdownDescription: "No tool carrying one of these tags.",
						Optional:            true, ElementType: types.StringType, Validators: sessionTagsValidators(),
					},
				}},
			},
			"tags": schema.SetAttribute{
				MarkdownDescription: "Only tools carrying at least one of these MCP annotation hints: " +
					strings.Join(quoted(sessionTagValues), ", ") + ". Not with `session_config_id`.",
				Optional:    true,
				ElementType: types.StringType,
				Validators:  append(sessionTagsValidators(), setvalidator.ConflictsWith(path.MatchRoot("session_config_id"))),
			},
			"disabled_tags": schema.SetAttribute{
				MarkdownDescription: "No tool carrying any of these hints (same values as `tags`).",
				Optional:            true,
				ElementType:         types.StringType,
				Validators:          append(sessionTagsValidators(), setvalidator.ConflictsWith(path.MatchRoot("session_config_id"))),
			},
			"workbench": schema.SingleNestedAttribute{
				MarkdownDescription: "The workbench, the session's code execution sandbox.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{
						MarkdownDescription: "Whether the workbench is on. The service's default is `true`.", Optional: true,
					},
					"proxy_execution": schema.BoolAttribute{
						MarkdownDescription: "Whether the workbench may call URLs and APIs directly. The service's " +
							"default is `true`.",
						Optional: true,
					},
					"auto_offload_threshold": schema.Int64Attribute{
						MarkdownDescription: "Characters of a tool's answer from which it is saved to a file in the " +
							"workbench. The service's default is 20000.",
						Optional:   true,
						Validators: []validator.Int64{int64validator.AtLeast(1)},
					},
					"sandbox_size": schema.StringAttribute{
						MarkdownDescription: "The sandbox's compute tier: `standard` (1 vCPU, 1 GB, the default), " +
							"`medium`, `large` or `xlarge` (8 vCPU, 8 GB). Changing it recreates the sandbox on its next use.",
						Optional:   true,
						Validators: []validator.String{stringvalidator.OneOf(sessionSandboxSizes...)},
					},
				},
			},
			"multi_account": schema.SingleNestedAttribute{
				MarkdownDescription: "Several connected accounts per toolkit. Left out, the project's setting applies.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{MarkdownDescription: "Whether the user may connect several accounts per toolkit.", Optional: true},
					"max_accounts_per_toolkit": schema.Int64Attribute{
						MarkdownDescription: "At most this many accounts per toolkit: 2 to 10.",
						Optional:            true,
						Validators:          []validator.Int64{int64validator.Between(2, 10)},
					},
					"require_explicit_selection": schema.BoolAttribute{
						MarkdownDescription: "Whether the agent must say which account to use when there are several.",
						Optional:            true,
					},
				},
			},
			"session_config_id": schema.StringAttribute{
				MarkdownDescription: "A saved session config (`sc_...`, written in the service's dashboard; the " +
					"`service_session_configs` data source lists them) whose toolkits, tools and tags policy the " +
					"session gets when it is created. Later edits to the config do not change the session. Not with " +
					"`toolkits`, `disabled_toolkits`, `tools`, `tags` or `disabled_tags`; changing it creates a new " +
					"session.",
				Optional: true,
				Validators: []validator.String{
					validators.ObjectID("sc_"),
					stringvalidator.ConflictsWith(conflictPaths("")...),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"mcp_url": schema.StringAttribute{
				MarkdownDescription: "The session's MCP URL, to hand to the agent's deployment. Sensitive: it names " +
					"the session, and on a project that does not require the API key for MCP (`require_mcp_api_key` " +
					"of `service_project` false: the setting is on by default only for organizations created since " +
					"March 2026, and a project can turn it off) the URL alone lets any MCP client use the user's " +
					"connected accounts. Where the project requires it, clients also send the project's API key in " +
					"the `x-api-key` header.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"mcp_type": schema.StringAttribute{
				MarkdownDescription: "The MCP transport of `mcp_url` (`http`: streamable HTTP).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"config_version": schema.Int64Attribute{
				MarkdownDescription: "The version of the session's configuration: 1 when created, one more per change.",
				Computed:            true,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the session was created (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func quoted(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return out
}

// ValidateConfig: each tool rule is one of enabled, disabled or a tag
// filter; a toolkit pins one connected account unless multi_account is on.
func (r *toolRouterSessionResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg toolRouterSessionModel // all ValidateConfig reads
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "tools", "connected_accounts", "multi_account")...)
	if resp.Diagnostics.HasError() {
		return
	}
	for key, v := range cfg.Tools.Elements() {
		o, ok := v.(types.Object)
		if !ok || o.IsNull() || o.IsUnknown() {
			continue
		}
		a := o.Attributes()
		kinds := 0
		for _, set := range [][]string{{"enabled"}, {"disabled"}, {"tags", "disabled_tags"}} {
			for _, name := range set {
				if a[name] != nil && !a[name].IsNull() {
					kinds++
					break
				}
			}
		}
		if kinds != 1 {
			resp.Diagnostics.AddAttributeError(path.Root("tools").AtMapKey(key), "Invalid tool rule",
				fmt.Sprintf("Attribute tools[%q] sets %d kinds of rule: give exactly one of enabled (only these tools), "+
					"disabled (every tool but these), or tags and/or disabled_tags (a tag filter).", key, kinds))
		}
	}
	multi := objectBool(cfg.MultiAccount, "enabled")
	if multi.IsUnknown() || multi.ValueBool() {
		return
	}
	for key, v := range cfg.ConnectedAccounts.Elements() {
		if s, ok := v.(types.Set); ok && len(s.Elements()) > 1 {
			resp.Diagnostics.AddAttributeError(path.Root("connected_accounts").AtMapKey(key), "Several accounts for one toolkit",
				fmt.Sprintf("Attribute connected_accounts[%q] pins %d accounts: a session pins at most one per toolkit "+
					"unless multi_account.enabled is true.", key, len(s.Elements())))
		}
	}
}

// objectBool is a bool member of an object (null when the object is null).
func objectBool(o types.Object, name string) types.Bool {
	if o.IsUnknown() {
		return types.BoolUnknown()
	}
	if b, ok := o.Attributes()[name].(types.Bool); ok {
		return b
	}
	return types.BoolNull()
}

func objectString(o types.Object, name string) types.String {
	if s, ok := o.Attributes()[name].(types.String); ok {
		return s
	}
	return types.StringNull()
}

func objectInt64(o types.Object, name string) types.Int64 {
	if n, ok := o.Attributes()[name].(types.Int64); ok {
		return n
	}
	return types.Int64Null()
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

func int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := v.ValueInt64()
	return &n
}

// orDefault is v, or the default def when v is null.
func orDefault(v types.Bool, def bool) *bool {
	if p := boolPtr(v); p != nil {
		return p
	}
	return &def
}

// mapStrings reads a map of strings.
func mapStrings(m types.Map) map[string]string {
	out := map[string]string{}
	for k, v := range m.Elements() {
		if s, ok := v.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			out[k] = s.ValueString()
		}
	}
	return out
}

// mapStringSets reads a map of sets of strings.
func mapStringSets(m types.Map) map[string][]string {
	out := map[string][]string{}
	for k, v := range m.Elements() {
		if s, ok := v.(types.Set); ok {
			out[k] = setStrings(s)
		}
	}
	return out
}

// The request's members, from a plan. patch: the form a PATCH sends (the
// service's defaults for members the nested attribute leaves out, so that
// the block means the same whether the service merges or replaces it).
func (m *toolRouterSessionModel) toolkitsParam() *client.SessionToolkitsParam {
	switch {
	case !m.Toolkits.IsNull():
		return &client.SessionToolkitsParam{Slugs: setStrings(m.Toolkits)}
	case !m.DisabledToolkits.IsNull():
		return &client.SessionToolkitsParam{Disable: true, Slugs: setStrings(m.DisabledToolkits)}
	}
	return nil
}

func (m *toolRouterSessionModel) tagsParam() *client.SessionTagsParam {
	if m.Tags.IsNull() && m.DisabledTags.IsNull() {
		return nil
	}
	return &client.SessionTagsParam{Enable: setStrings(m.Tags), Disable: setStrings(m.DisabledTags)}
}

func (m *toolRouterSessionModel) toolsParam() map[string]client.SessionToolRuleParam {
	if m.Tools.IsNull() {
		return nil
	}
	out := map[string]client.SessionToolRuleParam{}
	for k, v := range m.Tools.Elements() {
		o, ok := v.(types.Object)
		if !ok {
			continue
		}
		a := o.Attributes()
		set := func(name string) types.Set { s, _ := a[name].(types.Set); return s }
		switch {
		case !set("enabled").IsNull():
			out[k] = client.SessionToolRuleParam{Enable: codec.NonNil(setStrings(set("enabled")))}
		case !set("disabled").IsNull():
			out[k] = client.SessionToolRuleParam{Disable: codec.NonNil(setStrings(set("disabled")))}
		default:
			out[k] = client.SessionToolRuleParam{Tags: &client.SessionTagsParam{Enable: setStrings(set("tags")), Disable: setStrings(set("disabled_tags"))}}
		}
	}
	return out
}

func (m *toolRouterSessionModel) manageConnectionsParam(patch bool) *client.SessionManageConnectionsParam {
	o := m.ManageConnections
	if o.IsNull() {
		return nil
	}
	p := &client.SessionManageConnectionsParam{
		Enable: boolPtr(objectBool(o, "enabled")), CallbackURL: objectString(o, "callback_url").ValueString(),
		EnableWaitForConnections: boolPtr(objectBool(o, "wait_for_connections")), EnableConnectionRemoval: boolPtr(objectBool(o, "connection_removal")),
	}
	if patch {
		p.Enable = orDefault(objectBool(o, "enabled"), true)
		p.EnableWaitForConnections = orDefault(objectBool(o, "wait_for_connections"), false)
		p.EnableConnectionRemoval = orDefault(objectBool(o, "connection_removal"), true)
	}
	return p
}

func (m *toolRouterSessionModel) workbenchParam(patch bool) *client.SessionWorkbenchParam {
	o := m.Workbench
	if o.IsNull() {
		return nil
	}
	p := &client.SessionWorkbenchParam{
		Enable: boolPtr(objectBool(o, "enabled")), EnableProxyExecution: boolPtr(objectBool(o, "proxy_execution")),
		AutoOffloadThreshold: int64Ptr(objectInt64(o, "auto_offload_threshold")), SandboxSize: objectString(o, "sandbox_size").ValueString(),
	}
	if patch {
		p.Enable = orDefault(objectBool(o, "enabled"), true)
		p.EnableProxyExecution = orDefault(objectBool(o, "proxy_execution"), true)
		if p.SandboxSize == "" {
			p.SandboxSize = "standard"
		}
	}
	return p
}

func (m *toolRouterSessionModel) multiAccountParam() *client.SessionMultiAccount {
	o := m.MultiAccount
	if o.IsNull() {
		return nil
	}
	return &client.SessionMultiAccount{
		Enable: boolPtr(objectBool(o, "enabled")), MaxAccountsPerToolkit: int64Ptr(objectInt64(o, "max_accounts_per_toolkit")),
		RequireExplicitSelection: boolPtr(objectBool(o, "require_explicit_selection")),
	}
}

// createRequest is the create body for the plan m: only what it sets.
func (m *toolRouterSessionModel) createRequest() client.CreateSessionRequest {
	body := client.CreateSessionRequest{
		UserID: m.UserID.ValueString(), Toolkits: m.toolkitsParam(), Tools: m.toolsParam(), Tags: m.tagsParam(),
		ManageConnections: m.manageConnectionsParam(false), Workbench: m.workbenchParam(false), MultiAccount: m.multiAccountParam(),
		SessionConfigID: m.SessionConfigID.ValueString(),
	}
	if !m.AuthConfigs.IsNull() {
		body.AuthConfigs = mapStrings(m.AuthConfigs)
	}
	if !m.ConnectedAccounts.IsNull() {
		body.ConnectedAccounts = mapStringSets(m.ConnectedAccounts)
	}
	return body
}

// updateRequest is the PATCH body taking the session from state to plan:
// every attribute that changed, a removed one as its reset (toolkits: every
// toolkit; maps: empty; nested attributes: null, the service's defaults).
func updateRequest(plan, state *toolRouterSessionModel) client.UpdateSessionRequest {
	var u client.UpdateSessionRequest
	if !plan.Toolkits.Equal(state.Toolkits) || !plan.DisabledToolkits.Equal(state.DisabledToolkits) {
		u.Toolkits = plan.toolkitsParam()
		if u.Toolkits == nil {
			u.Toolkits = &client.SessionToolkitsParam{Disable: true}
		}
	}
	if !plan.AuthConfigs.Equal(state.AuthConfigs) {
		u.AuthConfigs = mapStrings(plan.AuthConfigs)
	}
	if !plan.ConnectedAccounts.Equal(state.ConnectedAccounts) {
		if plan.ConnectedAccounts.IsNull() {
			u.Reset = append(u.Reset, "connected_accounts")
		} else {
			u.ConnectedAccounts = mapStringSets(plan.ConnectedAccounts)
		}
	}
	if !plan.Tools.Equal(state.Tools) {
		u.Tools = plan.toolsParam()
		if u.Tools == nil {
			u.Tools = map[string]client.SessionToolRuleParam{}
		}
	}
	if !plan.Tags.Equal(state.Tags) || !plan.DisabledTags.Equal(state.DisabledTags) {
		u.Tags = plan.tagsParam()
		if u.Tags == nil {
			u.Tags = &client.SessionTagsParam{}
		}
	}
	nested := []struct {
		name        string
		plan, state types.Object
		set         func()
	}{
		{"manage_connections", plan.ManageConnections, state.ManageConnections, func() { u.ManageConnections = plan.manageConnectionsParam(true) }},
		{"workbench", plan.Workbench, state.Workbench, func() { u.Workbench = plan.workbenchParam(true) }},
		{"multi_account", plan.MultiAccount, state.MultiAccount, func() { u.MultiAccount = plan.multiAccountParam() }},
	}
	for _, n := range nested {
		switch {
		case n.plan.Equal(n.state):
		case n.plan.IsNull():
			u.Reset = append(u.Reset, n.name)
		default:
			n.set()
		}
	}
	return u
}

func (r *toolRouterSessionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan toolRouterSessionModel
	if !r.planForCreate(ctx, req, resp, &plan) {
		return
	}
	s, err := r.data.Client.CreateSession(ctx, plan.createRequest())
	if err != nil {
		addSessionWriteError(&resp.Diagnostics, "creating", "", err)
		return
	}
	tflog.Debug(ctx, "created tool-router session", map[string]any{"id": s.SessionID, "user_id": s.Config.UserID})
	resp.Diagnostics.Append(plan.fill(ctx, s)...)
	r.readCreatedAt(ctx, &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// readCreatedAt reads the creation time from the config history when the
// answer had none (one GET; the session's answers may lack created_at); a
// failed read leaves it null with a warning.
func (r *toolRouterSessionResource) readCreatedAt(ctx context.Context, m *toolRouterSessionModel, diags *diag.Diagnostics) {
	if !m.CreatedAt.IsNull() && !m.CreatedAt.IsUnknown() && m.CreatedAt.ValueString() != "" {
		return
	}
	at, err := r.data.Client.SessionCreatedAt(ctx, m.ID.ValueString())
	if err != nil {
		diags.AddWarning("Session creation time not read",
			fmt.Sprintf("The config history of tool-router session %s could not be read, so created_at stays empty: %v", m.ID.ValueString(), err))
	}
	m.CreatedAt = codec.StringOrNull(at)
}

// addSessionWriteError reports a failed create or update; an ambiguous
// create says that the service cannot list sessions to find out.
func addSessionWriteError(diags *diag.Diagnostics, op, id string, err error) {
	var amb *client.AmbiguousWriteError
	if errors.As(err, &amb) {
		diags.AddError("Tool-router session may have been created",
			"The connection failed after the create request was sent, so the service may have created the session. "+
				"The service cannot list sessions, so the provider cannot find it and does not send the request again: "+
				"an orphan session (unused, it holds no credential) may be left behind. Apply again to create a session.\n\n"+err.Error())
		return
	}
	if client.IsStatus(err, http.StatusForbidden) {
		diagnostics.AddAPIError(diags, op, toolRouterSessionType, id, err)
		diags.AddError("Sessions not allowed for this key",
			"The service refused the API key for tool-router sessions (403): a scoped project API key needs the "+
				"Session management write permission, and a session_config_id needs the project's session configs feature.")
		return
	}
	diagnostics.AddAPIError(diags, op, toolRouterSessionType, id, err)
}

func (r *toolRouterSessionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state toolRouterSessionModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	s, err := r.data.Client.GetSession(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, toolRouterSessionType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fill(ctx, s)...)
	r.readCreatedAt(ctx, &state, &resp.Diagnostics)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

func (r *toolRouterSessionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state toolRouterSessionModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
		return
	}
	id := state.ID.ValueString()
	u := updateRequest(&plan, &state)
	if u.Empty() {
		plan.ID, plan.MCPURL, plan.MCPType, plan.ConfigVersion, plan.CreatedAt = state.ID, state.MCPURL, state.MCPType, state.ConfigVersion, state.CreatedAt
		resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
		return
	}
	s, err := r.data.Client.UpdateSession(ctx, id, u)
	if err != nil {
		addSessionWriteError(&resp.Diagnostics, "updating", id, err)
		return
	}
	plan.CreatedAt = state.CreatedAt
	resp.Diagnostics.Append(plan.fill(ctx, s)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

func (r *toolRouterSessionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state toolRouterSessionModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id") {
		return
	}
	id := state.ID.ValueString()
	diagnostics.AddDeleteError(&resp.Diagnostics, toolRouterSessionType, id, r.data.Client.DeleteSession(ctx, id))
}

func (r *toolRouterSessionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(identity.ImportID(ctx, req, &resp.Diagnostics))
	if resp.Diagnostics.HasError() {
		return
	}
	if !sessionIDRe.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Expected a tool-router session id such as trs_AbC123dEf456 (the id of the session, for example "+
				"an output of the configuration that created it: the service does not list sessions), got %q.", id))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), types.StringValue(id))...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
}

// fill copies the service's session into m (the plan in Create and Update,
// the prior state in Read: after an import only its id). What m leaves out
// stays null while the service answers its default for it (see
// sessionMCDefaults); after an import everything the service answers is
// taken. With a session_config_id, the config's policy (toolkits, tools,
// tags) is the session's and not this resource's: those stay as m has them.
//
//nolint:unparam // the one shape of fill (see package codec), though this one reports nothing
func (m *toolRouterSessionModel) fill(_ context.Context, s *client.ToolRouterSession) diag.Diagnostics {
	importing := m.UserID.IsNull()
	c := s.Config
	m.ID = types.StringValue(s.SessionID)
	m.UserID = types.StringValue(c.UserID)
	m.MCPURL = types.StringValue(s.MCP.URL)
	m.MCPType = types.StringValue(s.MCP.Type)
	m.ConfigVersion = types.Int64Value(int64(max(s.ConfigVersion, 1)))
	if s.CreatedAt != "" {
		m.CreatedAt = types.StringValue(s.CreatedAt)
	} else if m.CreatedAt.IsUnknown() {
		m.CreatedAt = types.StringNull()
	}
	if s.Experimental != nil && s.Experimental.SourceSessionConfig != nil && s.Experimental.SourceSessionConfig.ID != "" {
		m.SessionConfigID = types.StringValue(s.Experimental.SourceSessionConfig.ID)
	}
	if m.SessionConfigID.IsNull() {
		var tk client.SessionFilter
		if c.Toolkits != nil {
			tk = *c.Toolkits
		}
		m.Toolkits = filterSet(m.Toolkits, tk.Enabled, tk.HasEnabled)
		m.DisabledToolkits = filterSet(m.DisabledToolkits, tk.Disabled, tk.HasDisabled && len(tk.Disabled) > 0)
		var tags client.SessionFilter
		if c.Tags != nil {
			tags = *c.Tags
		}
		m.Tags = filterSet(m.Tags, tags.Enabled, len(tags.Enabled) > 0)
		m.DisabledTags = filterSet(m.DisabledTags, tags.Disabled, len(tags.Disabled) > 0)
		m.Tools = sessionToolsValue(m.Tools, c.Tools)
	}
	m.AuthConfigs = sessionMap(m.AuthConfigs, len(c.AuthConfigs) > 0, func() attr.Value {
		elems := map[string]attr.Value{}
		for k, v := range c.AuthConfigs {
			elems[k] = types.StringValue(v)
		}
		return types.MapValueMust(types.StringType, elems)
	})
	m.ConnectedAccounts = sessionMap(m.ConnectedAccounts, len(c.ConnectedAccounts) > 0, func() attr.Value {
		elems := map[string]attr.Value{}
		for k, ids := range c.ConnectedAccounts {
			elems[k] = stringSet(ids, false)
		}
		return types.MapValueMust(types.SetType{ElemType: types.StringType}, elems)
	})
	var mc, wb map[string]attr.Value
	if x := c.ManageConnections; x != nil {
		mc = map[string]attr.Value{"enabled": boolValue(x.Enabled), "callback_url": stringValue(x.CallbackURL),
			"wait_for_connections": boolValue(x.WaitForConnections), "connection_removal": boolValue(x.ConnectionRemoval)}
	}
	m.ManageConnections = fillNested(m.ManageConnections, mc, sessionMCAttrTypes, sessionMCDefaults, importing)
	if x := c.Workbench; x != nil {
		wb = map[string]attr.Value{"enabled": boolValue(x.Enable), "proxy_execution": boolValue(x.ProxyExecution),
			"auto_offload_threshold": int64Value(x.AutoOffloadThreshold), "sandbox_size": stringValue(x.SandboxSize)}
	}
	m.Workbench = fillNested(m.Workbench, wb, sessionWBAttrTypes, sessionWBDefaults, importing)
	var ma map[string]attr.Value
	if x := c.MultiAccount; x != nil {
		ma = map[string]attr.Value{"enabled": boolValue(x.Enable), "max_accounts_per_toolkit": int64Value(x.MaxAccountsPerToolkit),
			"require_explicit_selection": boolValue(x.RequireExplicitSelection)}
	}
	m.MultiAccount = fillNested(m.MultiAccount, ma, sessionMAAttrTypes, nil, true)
	return nil
}

// nullOf is the null value of a nested attribute's member type.
func nullOf(t attr.Type) attr.Value {
	switch t {
	case types.BoolType:
		return types.BoolNull()
	case types.Int64Type:
		return types.Int64Null()
	default:
		return types.StringNull()
	}
}

func boolValue(p *bool) types.Bool {
	if p == nil {
		return types.BoolNull()
	}
	return types.BoolValue(*p)
}

func stringValue(p *string) types.String {
	if p == nil || *p == "" {
		return types.StringNull()
	}
	return types.StringValue(*p)
}

func int64Value(p *int64) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*p)
}

// filterSet is a list the service answered, as a set: null when it answered
// none (present false) or an empty list the prior value did not set.
func filterSet(prior types.Set, vals []string, present bool) types.Set {
	if !present {
		return types.SetNull(types.StringType)
	}
	return stringSet(vals, prior.IsNull() || prior.IsUnknown())
}

// sessionMap is the service's map, or null when it answered an empty one the
// prior value did not set.
func sessionMap(prior types.Map, present bool, value func() attr.Value) types.Map {
	if !present {
		if !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
			return prior // an empty map configured: the service answers none
		}
		return types.MapNull(prior.ElementType(context.Background()))
	}
	v, _ := value().(types.Map)
	return v
}

// sessionToolsValue is the service's tool rules as the tools attribute.
func sessionToolsValue(prior types.Map, rules map[string]client.SessionToolRule) types.Map {
	objType := types.ObjectType{AttrTypes: sessionToolRuleAttrTypes}
	if len(rules) == 0 {
		if !prior.IsNull() && !prior.IsUnknown() && len(prior.Elements()) == 0 {
			return prior
		}
		return types.MapNull(objType)
	}
	elems := map[string]attr.Value{}
	for k, rule := range rules {
		vals := map[string]attr.Value{
			"enabled": types.SetNull(types.StringType), "disabled": types.SetNull(types.StringType),
			"tags": types.SetNull(types.StringType), "disabled_tags": types.SetNull(types.StringType),
		}
		switch {
		case rule.Tags != nil:
			vals["tags"] = stringSet(rule.Tags.Enabled, true)
			vals["disabled_tags"] = stringSet(rule.Tags.Disabled, true)
		case rule.Disabled != nil:
			vals["disabled"] = stringSet(rule.Disabled, false)
		default:
			vals["enabled"] = stringSet(rule.Enabled, false)
		}
		elems[k] = types.ObjectValueMust(sessionToolRuleAttrTypes, vals)
	}
	return types.MapValueMust(objType, elems)
}

// fillNested is a nested attribute from the service's answer (nil: none).
// A member the prior value sets takes the answer; one it leaves out stays
// null while the answer is its default (defaults), and takes the answer when
// it is another value (a change made outside Terraform) or, without a known
// default, when importing. The attribute stays null when no member is left.
func fillNested(prior types.Object, answered map[string]attr.Value, attrTypes map[string]attr.Type, defaults map[string]attr.Value, importing bool) types.Object {
	var priorAttrs map[string]attr.Value
	if !prior.IsNull() && !prior.IsUnknown() {
		priorAttrs = prior.Attributes()
	}
	out := map[string]attr.Value{}
	anySet := false
	for name, t := range attrTypes {
		ans := answered[name]
		if ans == nil {
			ans = nullOf(t)
		}
		p := priorAttrs[name]
		priorSet := p != nil && !p.IsNull() && !p.IsUnknown()
		def, hasDef := defaults[name]
		v := ans
		switch {
		case priorSet, ans.IsNull():
		case hasDef && ans.Equal(def):
			v = nullOf(t)
		case hasDef, importing:
		default:
			v = nullOf(t)
		}
		out[name] = v
		if !v.IsNull() {
			anySet = true
		}
	}
	if !anySet && priorAttrs == nil {
		return types.ObjectNull(attrTypes)
	}
	return types.ObjectValueMust(attrTypes, out)
}

// ModifyPlan checks the plan against the service without writing: see the
// schema's description. Objects are read through the schema cache, once per
// provider run; values not known at plan (objects created in the same
// apply) are checked in the final plan Terraform makes during apply.
func (r *toolRouterSessionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, toolRouterSessionType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

func (r *toolRouterSessionResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planUnchanged(req) || !r.data.Configured() {
		return
	}
	var plan toolRouterSessionModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *toolRouterSessionModel
	if !req.State.Raw.IsNull() {
		state = &toolRouterSessionModel{}
		resp.Diagnostics.Append(codec.Get(ctx, req.State, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	changed := func(p, s attr.Value) bool { return state == nil || !p.Equal(s) }
	diags := &resp.Diagnostics
	// Toolkits, by value and as keys.
	if changed(plan.Toolkits, state.get().Toolkits) {
		r.checkToolkitSet(ctx, diags, "toolkits", plan.Toolkits)
	}
	if changed(plan.DisabledToolkits, state.get().DisabledToolkits) {
		r.checkToolkitSet(ctx, diags, "disabled_toolkits", plan.DisabledToolkits)
	}
	if changed(plan.AuthConfigs, state.get().AuthConfigs) {
		r.checkAuthConfigs(ctx, diags, plan.AuthConfigs)
	}
	if changed(plan.ConnectedAccounts, state.get().ConnectedAccounts) || changed(plan.UserID, state.get().UserID) {
		r.checkConnectedAccounts(ctx, diags, plan)
	}
	if changed(plan.Tools, state.get().Tools) {
		r.checkTools(ctx, diags, plan.Tools)
	}
	if changed(plan.SessionConfigID, state.get().SessionConfigID) {
		r.checkSessionConfig(ctx, diags, plan.SessionConfigID)
	}
}

// get is the prior state, or an empty model for a create.
func (m *toolRouterSessionModel) get() *toolRouterSessionModel {
	if m == nil {
		return &toolRouterSessionModel{}
	}
	return m
}

func (r *toolRouterSessionResource) checkToolkitSet(ctx context.Context, diags *diag.Diagnostics, name string, s types.Set) {
	for _, slug := range setStrings(s) {
		r.data.lookupToolkit(ctx, diags, path.Root(name).AtSetValue(types.StringValue(slug)), slug, true)
	}
}

// checkAuthConfigs: each known auth config exists and is of its key's toolkit.
func (r *toolRouterSessionResource) checkAuthConfigs(ctx context.Context, diags *diag.Diagnostics, m types.Map) {
	for key, v := range m.Elements() {
		at := path.Root("auth_configs").AtMapKey(key)
		tk := r.data.lookupToolkit(ctx, diags, at, key, true)
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		id := s.ValueString()
		slug, err := r.data.Cache.AuthConfigToolkit(ctx, id)
		switch {
		case client.IsNotFound(err):
			diags.AddAttributeError(at, "Unknown auth config",
				fmt.Sprintf("Attribute auth_configs[%q]: the project has no auth config %q (the service_auth_configs data "+
					"source lists them).", key, id))
		case err != nil:
			diagnostics.AddAPIErrorAt(diags, at, "reading auth config "+id+" for", toolRouterSessionType, "", err)
		case tk != nil && !strings.EqualFold(slug, tk.Slug):
			diags.AddAttributeError(at, "Auth config of another toolkit",
				fmt.Sprintf("Attribute auth_configs[%q]: auth config %s is for toolkit %q, not %q. Key it by %q, or give "+
					"an auth config of %q.", key, id, slug, key, slug, key))
		}
	}
}

// checkConnectedAccounts: each known account exists, is of its key's
// toolkit, belongs to user_id and is not disabled.
func (r *toolRouterSessionResource) checkConnectedAccounts(ctx context.Context, diags *diag.Diagnostics, plan toolRouterSessionModel) {
	user, userKnown := plan.UserID.ValueString(), !plan.UserID.IsUnknown()
	for key, v := range plan.ConnectedAccounts.Elements() {
		at := path.Root("connected_accounts").AtMapKey(key)
		tk := r.data.lookupToolkit(ctx, diags, at, key, true)
		set, ok := v.(types.Set)
		if !ok {
			continue
		}
		for _, id := range setStrings(set) {
			a, err := r.data.Cache.ConnectedAccount(ctx, id)
			switch {
			case client.IsNotFound(err):
				diags.AddAttributeError(at, "Unknown connected account",
					fmt.Sprintf("Attribute connected_accounts[%q]: the project has no connected account %q (the "+
						"service_connected_accounts data source lists them).", key, id))
				continue
			case err != nil:
				diagnostics.AddAPIErrorAt(diags, at, "reading connected account "+id+" for", toolRouterSessionType, "", err)
				continue
			}
			switch {
			case tk != nil && !strings.EqualFold(a.Toolkit.Slug, tk.Slug):
				diags.AddAttributeError(at, "Connected account of another toolkit",
					fmt.Sprintf("Attribute connected_accounts[%q]: connected account %s is an account of toolkit %q, not %q.",
						key, id, a.Toolkit.Slug, key))
			case userKnown && a.UserID != user:
				diags.AddAttributeError(at, "Connected account of another user",
					fmt.Sprintf("Attribute connected_accounts[%q]: connected account %s belongs to user %q, not to the "+
						"session's user_id %q: a session pins only its own user's accounts.", key, id, a.UserID, user))
			case a.IsDisabled:
				diags.AddAttributeError(at, "Disabled connected account",
					fmt.Sprintf("Attribute connected_accounts[%q]: connected account %s is disabled; enable it first "+
						"(service_connected_account's enabled) or pin another account.", key, id))
			}
		}
	}
}

// checkTools: each toolkit exists and each tool named is one of its tools.
func (r *toolRouterSessionResource) checkTools(ctx context.Context, diags *diag.Diagnostics, m types.Map) {
	for key, v := range m.Elements() {
		at := path.Root("tools").AtMapKey(key)
		tk := r.data.lookupToolkit(ctx, diags, at, key, true)
		o, ok := v.(types.Object)
		if tk == nil || !ok || o.IsNull() || o.IsUnknown() {
			continue
		}
		var named []string
		for _, name := range []string{"enabled", "disabled"} {
			if s, ok := o.Attributes()[name].(types.Set); ok {
				named = append(named, setStrings(s)...)
			}
		}
		if len(named) == 0 {
			continue
		}
		list, err := r.data.Cache.ToolkitTools(ctx, tk.Slug)
		if err != nil {
			diagnostics.AddAPIErrorAt(diags, at, "listing the tools of toolkit "+tk.Slug+" for", toolRouterSessionType, "", err)
			continue
		}
		slugs := make([]string, 0, len(list))
		for _, t := range list {
			slugs = append(slugs, t.Slug)
		}
		for _, tool := range named {
			if !slices.Contains(slugs, tool) {
				diags.AddAttributeError(at, "Unknown tool",
					fmt.Sprintf("Attribute tools[%q]: toolkit %q has no tool %q at version %s.%s (The service_tools data "+
						"source lists a toolkit's tools.)", key, tk.Slug, tool, r.data.VersionFor(tk.Slug), suggest.DidYouMean(tool, slugs)))
			}
		}
	}
}

// checkSessionConfig: the session config exists and is not archived (one
// GET; a project without the feature is told so).
func (r *toolRouterSessionResource) checkSessionConfig(ctx context.Context, diags *diag.Diagnostics, v types.String) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	id := v.ValueString()
	at := path.Root("session_config_id")
	sc, err := r.data.sessionConfig(ctx, id)
	switch {
	case client.IsStatus(err, http.StatusForbidden):
		diags.AddAttributeError(at, "Session configs not enabled", sessionConfigsForbidden("session_config_id", err))
	case client.IsNotFound(err):
		diags.AddAttributeError(at, "Unknown session config",
			fmt.Sprintf("Attribute session_config_id: the project has no session config %q (the service_session_configs "+
				"data source lists them; archived ones with archived = true).", id))
	case err != nil:
		diagnostics.AddAPIErrorAt(diags, at, "reading session config "+id+" for", toolRouterSessionType, "", err)
	case sc.Archived:
		diags.AddAttributeError(at, "Archived session config",
			fmt.Sprintf("Attribute session_config_id: session config %s (%q) is archived, and an archived config cannot "+
				"create sessions. Restore it in the service's dashboard, or choose another.", id, sc.Name))
	}
}

// sessionConfigLookup is one read of a session config, kept for the run.
type sessionConfigLookup struct {
	sc  *client.SavedSessionConfig
	err error
}

// sessionConfig reads a session config at most once per provider data (a
// failure other than 403 or 404 is not kept: a later check reads again).
func (d *ProviderData) sessionConfig(ctx context.Context, id string) (*client.SavedSessionConfig, error) {
	if v, ok := d.sessionConfigs.Load(id); ok {
		l := v.(sessionConfigLookup) //nolint:forcetypeassert // only sessionConfigLookup is stored
		return l.sc, l.err
	}
	sc, err := d.Client.GetSessionConfig(ctx, id)
	if err == nil || client.IsNotFound(err) || client.IsStatus(err, http.StatusForbidden) {
		d.sessionConfigs.Store(id, sessionConfigLookup{sc, err})
	}
	return sc, err
}

// sessionConfigsForbidden explains a 403 of the session configs' routes.
func sessionConfigsForbidden(attr string, err error) string {
	return fmt.Sprintf("The service answered 403 for %s: session configs are an experimental feature, available only to "+
		"projects it is enabled for, and a scoped API key needs the Session management read permission. Ask the "+
		"service to enable Session configs for the project (or use a key with that permission), or leave %s out "+
		"and set the session's toolkits, tools and tags directly.\n\n%v", attr, attr, err)
}
