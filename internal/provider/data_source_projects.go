package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
)

var _ datasource.DataSourceWithConfigure = (*projectsDataSource)(nil)

// NewProjectsDataSource returns the service_projects data source.
func NewProjectsDataSource() datasource.DataSource {
	return &projectsDataSource{dataSourceBase{orgTypeNamed("projects")}}
}

type projectsDataSource struct{ dataSourceBase }

// projectFilters are the filters of this data source, which the
// service_project list resource shares.
type projectFilters struct {
	Name types.String `tfsdk:"name"`
}

// projectFilterNames names the attributes of projectFilters.
var projectFilterNames = []string{"name"}

// projectFilter selects projects; the service's listing has no filter, so
// it is applied to each page.
type projectFilter struct{ name string }

func (f projectFilters) params(_ context.Context, _ *diag.Diagnostics) projectFilter {
	return projectFilter{name: strings.ToLower(f.Name.ValueString())}
}

func (f projectFilter) match(p client.Project) bool {
	return !p.Deleted && strings.Contains(strings.ToLower(p.Name), f.name)
}

// filteredProjects yields the organization's projects f selects.
func filteredProjects(ctx context.Context, c *client.Client, f projectFilter) func(func(client.Project, error) bool) {
	return func(yield func(client.Project, error) bool) {
		for p, err := range c.Projects(ctx) {
			if err != nil {
				yield(client.Project{}, err)
				return
			}
			if f.match(p) && !yield(p, nil) {
				return
			}
		}
	}
}

type projectsDataModel struct {
	projectFilters
	IDs      types.List `tfsdk:"ids"`
	Projects types.List `tfsdk:"projects"`
}

func (d *projectsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the organization's projects, oldest first, optionally filtered by name, with the " +
			"organization's key (`org_api_key`). Every page is read (one request per 50 projects). The projects' " +
			"API keys are not readable.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "Only projects whose name contains this text (case-insensitive).",
				Optional:            true,
			},
			"ids": listfilter.ComputedStringList("Ids of the projects found, in the order of `projects`."),
			"projects": schema.ListNestedAttribute{
				MarkdownDescription: "The projects found.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: projectDataAttributes(false)},
			},
		},
	}
}

func (d *projectsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_projects", &resp.Diagnostics) {
		return
	}
	var cfg projectsDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ids := []string{}
	projects := []projectDataModel{}
	for p, err := range filteredProjects(ctx, d.data.Client, cfg.params(ctx, &resp.Diagnostics)) {
		if err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_projects", "", err)
			return
		}
		ids = append(ids, p.ID)
		projects = append(projects, projectDataFrom(&p))
	}
	idList, diags := types.ListValueFrom(ctx, types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	projectList, diags := types.ListValueFrom(ctx, types.ObjectType{AttrTypes: projectDataAttrTypes}, projects)
	resp.Diagnostics.Append(diags...)
	cfg.IDs, cfg.Projects = idList, projectList
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &cfg)...)
}
