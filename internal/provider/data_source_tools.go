package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const toolsDataSourceType = "service_tools"

var _ datasource.DataSourceWithConfigure = (*toolsDataSource)(nil)

// NewToolsDataSource returns the service_tools data source.
func NewToolsDataSource() datasource.DataSource {
	return &toolsDataSource{dataSourceBase{typeNamed("tools")}}
}

type toolsDataSource struct{ dataSourceBase }

type toolsDataSourceModel struct {
	Toolkit types.String `tfsdk:"toolkit"`
	Version types.String `tfsdk:"version"`
	Slugs   []string     `tfsdk:"slugs"`
	Tools   []toolRef    `tfsdk:"tools"`
}

type toolRef struct {
	Slug        types.String `tfsdk:"slug"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	InputSchema types.String `tfsdk:"input_schema"`
}

func (d *toolsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the tools of a toolkit at a toolkit version, e.g. to restrict an auth config " +
			"(`tool_access_config.tools_available_for_execution = data.service_tools.github.slugs`) or to read a " +
			"tool's input schema.",
		Attributes: map[string]schema.Attribute{
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Slug of the toolkit, e.g. `github` (or a custom toolkit's `CUSTOM_...` slug).",
				Required:            true,
				Validators:          []validator.String{validators.ToolkitSlug()},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "Toolkit version: `YYYYMMDD_NN` or `latest`. Defaults to the version the provider " +
					"is configured with for this toolkit (`latest` when none is pinned).",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{validators.ToolkitVersion()},
			},
			"slugs": schema.ListAttribute{
				MarkdownDescription: "Slugs of the tools, in the service's order.",
				Computed:            true,
				ElementType:         types.StringType,
			},
			"tools": schema.ListNestedAttribute{
				MarkdownDescription: "The tools.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"slug":        schema.StringAttribute{MarkdownDescription: "Tool slug, e.g. `GITHUB_CREATE_ISSUE`.", Computed: true},
					"name":        schema.StringAttribute{MarkdownDescription: "Display name.", Computed: true},
					"description": schema.StringAttribute{MarkdownDescription: "What the tool does.", Computed: true},
					"input_schema": schema.StringAttribute{
						MarkdownDescription: "JSON Schema of the tool's arguments, as JSON (use `jsondecode`).",
						Computed:            true,
					},
				}},
			},
		},
	}
}

func (d *toolsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_tools", &resp.Diagnostics) {
		return
	}
	var m toolsDataSourceModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	slug := strings.TrimSpace(m.Toolkit.ValueString())
	version := d.data.VersionFor(slug)
	if !m.Version.IsNull() && !m.Version.IsUnknown() {
		version = strings.TrimSpace(m.Version.ValueString())
	}
	versions := &client.ToolkitVersions{Global: latestVersion}
	if version != latestVersion {
		versions = &client.ToolkitVersions{PerToolkit: map[string]string{slug: version}}
	}
	tools, err := d.data.Client.ListTools(ctx, client.ToolListParams{ToolkitSlug: slug, Versions: versions})
	if err != nil {
		diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("toolkit"), "reading", toolsDataSourceType, slug, err)
		return
	}
	m.Version = types.StringValue(version)
	m.Slugs = make([]string, 0, len(tools))
	m.Tools = make([]toolRef, 0, len(tools))
	for _, t := range tools {
		in, err := json.Marshal(t.InputParameters)
		if err != nil {
			resp.Diagnostics.AddError("Invalid tool input schema", fmt.Sprintf("Tool %s: %v.", t.Slug, err))
			return
		}
		m.Slugs = append(m.Slugs, t.Slug)
		m.Tools = append(m.Tools, toolRef{Slug: types.StringValue(t.Slug), Name: types.StringValue(t.Name),
			Description: types.StringValue(t.Description), InputSchema: types.StringValue(string(in))})
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
