package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/suggest"
)

// ModifyPlan checks, without writing anything: that the name is free (when
// the server is created or renamed), that the known auth configs exist, that
// the NO_AUTH toolkits exist and need no authentication, and the allowed
// tools (checkAllowedTools: fully when every auth config id is known, else
// each tool against the toolkit its prefix names). Objects are read through
// the schema cache: once per provider run. Auth configs created in the same
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
					"name, or import the existing server (`terraform import %s.<name> %s`).", m.Name, m.ID, mcpServerType, m.ID))
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

type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

func wasConfigured(ctx context.Context, p privateGetter) bool {
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
	raw, d := codec.With(ctx, mcpServerAttrTypes(), resp.Plan.Raw, planned)
	if resp.Diagnostics.Append(d...); !d.HasError() {
		resp.Plan.Raw = raw
	}
}

// mcpServerAttrTypes are the framework types of the top-level attributes,
// for codec.With (planEveryTool writes two at once).
var mcpServerAttrTypes = sync.OnceValue(func() codec.Types {
	var resp resource.SchemaResponse
	(&mcpServerResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return codec.TypesOf(mcpServerType, resp.Schema)
})
