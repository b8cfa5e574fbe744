package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonschema"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
	"github.com/integration-service/terraform-provider-service/internal/provider/suggest"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const toolExecuteActionType = "service_tool_execute"

var (
	_ action.ActionWithConfigure  = (*toolExecuteAction)(nil)
	_ action.ActionWithModifyPlan = (*toolExecuteAction)(nil)
)

// NewToolExecuteAction returns the service_tool_execute action.
func NewToolExecuteAction() action.Action {
	return &toolExecuteAction{actionBase{typeNamed("tool_execute")}}
}

type toolExecuteAction struct{ actionBase }

type toolExecuteModel struct {
	Tool               types.String `tfsdk:"tool"`
	UserID             types.String `tfsdk:"user_id"`
	ConnectedAccountID types.String `tfsdk:"connected_account_id"`
	Arguments          types.String `tfsdk:"arguments"`
	Version            types.String `tfsdk:"version"`
	ReportOutput       types.Bool   `tfsdk:"report_output"`
}

func (a *toolExecuteAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs one tool once, as the given user (their ACTIVE account of the tool's toolkit) or " +
			"connected account: one `POST /tools/execute/{tool}` per invocation. Fits what a pipeline does once " +
			"at a moment it chooses: a message to a channel after an apply, an issue opened when a deployment " +
			"changes. It runs every time it is triggered (`terraform apply -invoke=action.service_tool_execute.<name>`, " +
			"or a resource's `lifecycle { action_trigger { ... } }`) and is never repeated on its own: a request " +
			"whose outcome is unknown is reported, not sent again. Needs Terraform 1.14 or later (OpenTofu has no " +
			"actions).\n\n" +
			"The run reports the outcome (successful or not, and the service's log id) as progress, not the tool's " +
			"output, unless `report_output` is true. An execution the service answers as not successful fails the " +
			"run with the service's message. At plan, `arguments` is checked against the tool's input schema (at " +
			"the toolkit version the provider is configured with, or `version`), without executing anything.",
		Attributes: map[string]schema.Attribute{
			"tool": schema.StringAttribute{
				MarkdownDescription: "The tool's slug, e.g. `SLACK_SEND_MESSAGE` (the `service_tools` data source lists a toolkit's tools).",
				Required:            true,
				Validators: []validator.String{stringvalidator.RegexMatches(toolSlugRe,
					"must be a tool slug in upper snake case prefixed by its toolkit, e.g. GITHUB_CREATE_AN_ISSUE")},
			},
			"user_id": schema.StringAttribute{
				MarkdownDescription: "The user whose ACTIVE connected account of the tool's toolkit runs it. Exactly one " +
					"of `user_id` and `connected_account_id`.",
				Optional: true,
				Validators: []validator.String{validators.UserID(),
					stringvalidator.ExactlyOneOf(path.MatchRoot("user_id"), path.MatchRoot("connected_account_id"))},
			},
			"connected_account_id": schema.StringAttribute{
				MarkdownDescription: "The connected account (`ca_...`) that runs the tool.",
				Optional:            true,
				Validators:          []validator.String{validators.ObjectID("ca_")},
			},
			"arguments": schema.StringAttribute{
				MarkdownDescription: "The tool's arguments, a JSON object (`jsonencode({ channel = \"#deploys\", text = \"...\" })`); " +
					"`{}` when left out.",
				Optional:   true,
				Validators: []validator.String{validators.JSONObject()},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "The toolkit version to run (`YYYYMMDD_NN` or `latest`); the provider's " +
					"`toolkit_versions` when left out.",
				Optional:   true,
				Validators: []validator.String{validators.ToolkitVersion()},
			},
			"report_output": schema.BoolAttribute{
				MarkdownDescription: "Also report the tool's output (its `data`, as JSON) as progress. Default `false`: " +
					"a tool's output may hold what it read from the user's account.",
				Optional: true,
			},
		},
	}
}

// ModifyPlan checks, without executing anything, that the tool exists and
// that the arguments fit its input schema: the tool is found among the
// tools of the toolkit its slug names (the catalog and the toolkit's tools
// are read once per provider run).
func (a *toolExecuteAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if !a.data.Configured() || req.Config.Raw.IsNull() {
		return
	}
	var m toolExecuteModel // all ModifyPlan reads
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &m, "tool", "arguments", "version")...)
	if resp.Diagnostics.HasError() || !codec.Known(m.Tool) || m.Arguments.IsUnknown() || m.Version.IsUnknown() {
		return
	}
	destroyrun.GatedChecks(ctx, toolExecuteActionType, &resp.Diagnostics, func() { a.checkArguments(ctx, m, &resp.Diagnostics) })
}

func (a *toolExecuteAction) checkArguments(ctx context.Context, m toolExecuteModel, diags *diag.Diagnostics) {
	slug := m.Tool.ValueString()
	cands := toolkitsPrefixing(slug, a.data.toolkitSlugs(ctx))
	if len(cands) == 0 {
		diags.AddAttributeError(path.Root("tool"), "Unknown tool",
			fmt.Sprintf("Attribute tool: %q names no toolkit of the catalog (a tool's slug starts with its toolkit's, "+
				"e.g. GITHUB_ for github).", slug))
		return
	}
	var tool *client.Tool
	var known []string
	for _, tk := range cands {
		if !m.Version.IsNull() && m.Version.ValueString() != a.data.VersionFor(tk) {
			return // another version's schema: the service checks the arguments
		}
		list, err := a.data.Cache.ToolkitTools(ctx, tk)
		if err != nil {
			diagnostics.AddAPIErrorAt(diags, path.Root("tool"), "listing the tools of toolkit "+tk+" for", toolExecuteActionType, "", err)
			return
		}
		for i := range list {
			known = append(known, list[i].Slug)
			if list[i].Slug == slug && tool == nil {
				tool = &list[i]
			}
		}
	}
	if tool == nil {
		slices.Sort(known)
		diags.AddAttributeError(path.Root("tool"), "Unknown tool",
			fmt.Sprintf("Attribute tool: toolkit %q has no tool %q at version %s.%s (The service_tools data source "+
				"lists a toolkit's tools.)", cands[0], slug, a.data.VersionFor(cands[0]), suggest.DidYouMean(slug, known)))
		return
	}
	args, err := decodeArguments(m.Arguments)
	if err != nil {
		return // the attribute's validator reports it
	}
	for _, v := range jsonschema.Validate(tool.InputParameters, args) {
		field := v.Field
		if field == "" {
			field = "(the object)"
		}
		diags.AddAttributeError(path.Root("arguments"), "Arguments outside the tool's input schema",
			fmt.Sprintf("Attribute arguments, %s: %s (the input schema of %s at version %s; the service_tools data "+
				"source shows it).", field, v.Message, slug, a.data.VersionFor(tool.Toolkit.Slug)))
	}
}

// decodeArguments is the arguments attribute as an object ({} when null).
func decodeArguments(v types.String) (map[string]any, error) {
	if v.IsNull() || strings.TrimSpace(v.ValueString()) == "" {
		return map[string]any{}, nil
	}
	return jsonvalue.DecodeObject(v.ValueString())
}

func (a *toolExecuteAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if !requireClient(a.data, &resp.Diagnostics) {
		return
	}
	var m toolExecuteModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	progress := func(format string, args ...any) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}
	args, err := decodeArguments(m.Arguments)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("arguments"), "Invalid arguments", "Attribute arguments: "+err.Error())
		return
	}
	slug := m.Tool.ValueString()
	who := "user " + m.UserID.ValueString()
	if !m.ConnectedAccountID.IsNull() {
		who = "connected account " + m.ConnectedAccountID.ValueString()
	}
	version := m.Version.ValueString()
	if version == "" {
		if cands := toolkitsPrefixing(slug, a.data.toolkitSlugs(ctx)); len(cands) > 0 {
			version = a.data.VersionFor(cands[0])
		}
	}
	progress("Executing %s as %s", slug, who)
	out, err := a.data.Client.ExecuteTool(ctx, slug, client.ExecuteToolRequest{
		UserID: m.UserID.ValueString(), ConnectedAccountID: m.ConnectedAccountID.ValueString(), Version: version, Arguments: args,
	})
	if err != nil {
		diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("tool"), "executing tool "+slug+" with", toolExecuteActionType, "", err)
		return
	}
	logID := out.LogID
	if logID == "" {
		logID = "none"
	}
	if !out.Successful {
		msg := "the service gave no message"
		if out.Error != nil && *out.Error != "" {
			msg = *out.Error
		}
		progress("%s as %s: not successful (log id %s)", slug, who, logID)
		resp.Diagnostics.AddAttributeError(path.Root("tool"), "Tool execution not successful",
			fmt.Sprintf("The service ran %s as %s and answered that it did not succeed: %s (log id %s). Nothing is "+
				"repeated; fix the cause and invoke the action again.", slug, who, msg, logID))
		return
	}
	progress("%s as %s: successful (log id %s)", slug, who, logID)
	if m.ReportOutput.ValueBool() {
		b, err := json.Marshal(out.Data)
		if err == nil {
			progress("%s output: %s", slug, b)
		}
	}
}
