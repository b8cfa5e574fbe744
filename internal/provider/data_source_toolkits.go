package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*toolkitsDataSource)(nil)

// NewToolkitsDataSource returns the service_toolkits data source.
func NewToolkitsDataSource() datasource.DataSource {
	return &toolkitsDataSource{dataSourceBase{typeNamed("toolkits")}}
}

type toolkitsDataSource struct{ dataSourceBase }

type toolkitsDataSourceModel struct {
	Category  types.String     `tfsdk:"category"`
	Type      types.String     `tfsdk:"type"`
	ManagedBy types.String     `tfsdk:"managed_by"`
	SortBy    types.String     `tfsdk:"sort_by"`
	MaxItems  types.Int64      `tfsdk:"max_items"`
	Slugs     []string         `tfsdk:"slugs"`
	Toolkits  []toolkitSummary `tfsdk:"toolkits"`
}

type toolkitSummary struct {
	Slug                      types.String         `tfsdk:"slug"`
	Name                      types.String         `tfsdk:"name"`
	Logo                      types.String         `tfsdk:"logo"`
	Type                      types.String         `tfsdk:"type"`
	AppURL                    types.String         `tfsdk:"app_url"`
	Description               types.String         `tfsdk:"description"`
	Categories                []toolkitCategoryRef `tfsdk:"categories"`
	AuthSchemes               []string             `tfsdk:"auth_schemes"`
	ServiceManagedAuthSchemes []string             `tfsdk:"service_managed_auth_schemes"`
	IsLocal                   types.Bool           `tfsdk:"is_local"`
	NoAuth                    types.Bool           `tfsdk:"no_auth"`
	ToolsCount                types.Int64          `tfsdk:"tools_count"`
	TriggersCount             types.Int64          `tfsdk:"triggers_count"`
	Version                   types.String         `tfsdk:"version"`
}

// managed_by values in the provider's vocabulary, and their wire values.
const (
	managedByService = "service"
	managedByAll     = "all"
	managedByProject = "project"
)

// managedByWire maps the managed_by filter to the service's query value
// (the service calls its own managed credentials "composio").
var managedByWire = map[string]string{
	managedByService: "composio",
	managedByAll:     "all",
	managedByProject: "project",
}

// toolkitsPageSizeMax is the page size requested when max_items is small
// enough to fetch in one page.
const toolkitsPageSizeMax = 1000

var categorySlugRe = regexp.MustCompile(`^\S+$`)

// managedByValidator is a OneOf(service, all, project) whose error also
// explains the wire name "composio" used by the service's own SDKs and docs.
func managedByValidator() validator.String {
	return validators.StringCheck{
		Desc:    `value must be one of: "service", "all", "project"`,
		Summary: "Invalid managed_by filter",
		Check: func(v string) error {
			if _, ok := managedByWire[v]; ok {
				return nil
			}
			msg := fmt.Sprintf("%q is not valid; use \"service\" (toolkits with service-managed auth), "+
				"\"project\" (toolkits this project has auth configs for) or \"all\"", v)
			if strings.EqualFold(v, "composio") {
				msg += `. The service's API calls its managed credentials "composio"; in this provider that value is "service"`
			}
			return errors.New(msg)
		},
	}
}

func (d *toolkitsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the toolkits of the service catalog, optionally filtered by category and by who manages " +
			"their credentials. Every page of the service's list is followed (up to `max_items`). " +
			"Use `service_toolkit` for the auth scheme fields of one toolkit.",
		Attributes: map[string]schema.Attribute{
			"category": schema.StringAttribute{
				MarkdownDescription: "Only toolkits in this category (a category `slug`, e.g. `developer-tools`; " +
					"`service_toolkit_categories` lists them).",
				Optional: true,
				Validators: []validator.String{
					stringvalidator.LengthAtLeast(1),
					stringvalidator.RegexMatches(categorySlugRe, "must be a category slug such as developer-tools (no spaces)"),
				},
			},
			"type": schema.StringAttribute{
				MarkdownDescription: "Only `native` toolkits (the service catalog) or `custom` ones (registered by the " +
					"project); `all` or unset lists both.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf("native", "custom", "all")},
			},
			"managed_by": schema.StringAttribute{
				MarkdownDescription: "Only toolkits whose credentials are managed by: `service` (the service offers managed " +
					"auth for them, i.e. `use_service_managed_auth` works), `project` (toolkits that have an auth config in " +
					"this project), or `all` (no filter; the default).",
				Optional:   true,
				Validators: []validator.String{managedByValidator()},
			},
			"sort_by": schema.StringAttribute{
				MarkdownDescription: "Order of the result: `usage` (most used first; the service's default) or `alphabetically` (by name).",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf("usage", "alphabetically")},
			},
			"max_items": schema.Int64Attribute{
				MarkdownDescription: "Return at most this many toolkits (the first ones in the chosen order). Default: all.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"slugs": listfilter.ComputedStringList("Slugs of the toolkits found, in result order (handy for `for_each`)."),
			"toolkits": schema.ListNestedAttribute{
				MarkdownDescription: "The toolkits found, in result order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"slug": schema.StringAttribute{
							MarkdownDescription: "Slug of the toolkit, e.g. `github`.",
							Computed:            true,
						},
						"name": schema.StringAttribute{
							MarkdownDescription: "Display name of the toolkit.",
							Computed:            true,
						},
						"type": schema.StringAttribute{MarkdownDescription: "Provenance: `native` (a toolkit of the service catalog) or `custom` (registered by the project, e.g. with `service_custom_toolkit`).", Computed: true},
						"app_url": schema.StringAttribute{MarkdownDescription: "The toolkit's application URL, or a custom toolkit's MCP server URL (the service's `meta.app_url`, the " +
							"one name its documents give it, or `meta.mcp_url` should the service report that name since its rename of " +
							"2026-11-09, which no document confirms: both are read; may be empty).", Computed: true},
						"logo": schema.StringAttribute{
							MarkdownDescription: "URL of the toolkit's logo.",
							Computed:            true,
						},
						"description": schema.StringAttribute{
							MarkdownDescription: "Description of the toolkit.",
							Computed:            true,
						},
						"categories": toolkitCategoriesAttribute(),
						"auth_schemes": schema.ListAttribute{
							MarkdownDescription: "Auth schemes the toolkit supports, e.g. `[\"OAUTH2\", \"API_KEY\"]`.",
							Computed:            true,
							ElementType:         types.StringType,
						},
						"service_managed_auth_schemes": schema.ListAttribute{
							MarkdownDescription: "Auth schemes for which the service provides managed credentials.",
							Computed:            true,
							ElementType:         types.StringType,
						},
						"is_local": schema.BoolAttribute{
							MarkdownDescription: "Whether the toolkit is local (runs on the client side).",
							Computed:            true,
						},
						"no_auth": schema.BoolAttribute{
							MarkdownDescription: "Whether the toolkit needs no authentication at all.",
							Computed:            true,
						},
						"tools_count": schema.Int64Attribute{
							MarkdownDescription: "Number of tools in the toolkit.",
							Computed:            true,
						},
						"triggers_count": schema.Int64Attribute{
							MarkdownDescription: "Number of trigger types in the toolkit.",
							Computed:            true,
						},
						"version": schema.StringAttribute{
							MarkdownDescription: "The toolkit's current (latest) version.",
							Computed:            true,
						},
					},
				},
			},
		},
	}
}

// toolkitListParams maps the filters to the wire query (managed_by service ⇒ composio).
func toolkitListParams(m toolkitsDataSourceModel) client.ToolkitListParams {
	p := client.ToolkitListParams{
		Category: strings.TrimSpace(m.Category.ValueString()),
		SortBy:   m.SortBy.ValueString(),
		Type:     m.Type.ValueString(),
	}
	if v := m.ManagedBy.ValueString(); v != "" {
		p.ManagedBy = managedByWire[v]
	}
	if n := m.MaxItems.ValueInt64(); n > 0 && n <= toolkitsPageSizeMax {
		p.Limit = int(n) // one page is enough
	}
	return p
}

func (d *toolkitsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_toolkits", &resp.Diagnostics) {
		return
	}
	var state toolkitsDataSourceModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	params := toolkitListParams(state)
	maxItems := state.MaxItems.ValueInt64()

	state.Slugs = []string{}
	state.Toolkits = []toolkitSummary{}
	for tk, err := range d.data.Client.ToolkitsIter(ctx, params) {
		if err != nil {
			if params.Category != "" && client.IsStatus(err, http.StatusBadRequest) &&
				strings.Contains(strings.ToLower(err.Error()), "category") {
				diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("category"), "reading", "service_toolkits", "", err)
			} else {
				diagnostics.AddAPIError(&resp.Diagnostics, "reading", "service_toolkits", "", err)
			}
			return
		}
		state.Toolkits = append(state.Toolkits, toolkitSummaryFrom(tk))
		state.Slugs = append(state.Slugs, tk.Slug)
		if maxItems > 0 && int64(len(state.Toolkits)) >= maxItems {
			break // stop paging early
		}
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

func toolkitSummaryFrom(tk client.ToolkitSummary) toolkitSummary {
	return toolkitSummary{
		Slug:                      types.StringValue(tk.Slug),
		Name:                      types.StringValue(tk.Name),
		Logo:                      types.StringValue(tk.Meta.Logo),
		Type:                      types.StringValue(tk.Type),
		AppURL:                    types.StringValue(tk.Meta.URL()),
		Description:               types.StringValue(tk.Meta.Description),
		Categories:                categoryRefsFrom(tk.Meta.Categories),
		AuthSchemes:               toolkitStrings(tk.AuthSchemes),
		ServiceManagedAuthSchemes: toolkitStrings(tk.ComposioManagedAuthSchemes),
		IsLocal:                   types.BoolValue(tk.IsLocalToolkit),
		NoAuth:                    types.BoolValue(tk.NoAuth),
		ToolsCount:                types.Int64Value(int64(tk.Meta.ToolsCount)),
		TriggersCount:             types.Int64Value(int64(tk.Meta.TriggersCount)),
		Version:                   types.StringValue(tk.Meta.Version),
	}
}
