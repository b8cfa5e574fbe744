package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const projectDataSourceType = "service_project"

var (
	_ datasource.DataSourceWithConfigure        = (*projectDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*projectDataSource)(nil)
)

// NewProjectDataSource returns the service_project data source.
func NewProjectDataSource() datasource.DataSource {
	return &projectDataSource{dataSourceBase{orgTypeNamed("project")}}
}

type projectDataSource struct{ dataSourceBase }

// projectDataModel is one project as the data sources expose it.
type projectDataModel struct {
	ID        types.String `tfsdk:"id"`
	Name      types.String `tfsdk:"name"`
	OrgID     types.String `tfsdk:"org_id"`
	Email     types.String `tfsdk:"email"`
	CreatedAt types.String `tfsdk:"created_at"`
	UpdatedAt types.String `tfsdk:"updated_at"`
}

// projectDataAttrTypes is the object type of projectDataModel (for lists).
var projectDataAttrTypes = map[string]attr.Type{
	"id":         types.StringType,
	"name":       types.StringType,
	"org_id":     types.StringType,
	"email":      types.StringType,
	"created_at": types.StringType,
	"updated_at": types.StringType,
}

func projectDataFrom(p *client.Project) projectDataModel {
	opt := func(s string) types.String {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	return projectDataModel{
		ID:        types.StringValue(p.ID),
		Name:      types.StringValue(p.Name),
		OrgID:     types.StringValue(p.OrgID),
		Email:     opt(p.Email),
		CreatedAt: opt(p.CreatedAt),
		UpdatedAt: opt(p.UpdatedAt),
	}
}

// projectDataAttributes are the attributes of one project; with lookup, id
// and name are optional inputs (exactly one set).
func projectDataAttributes(lookup bool) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id":         schema.StringAttribute{MarkdownDescription: "The project id.", Computed: true},
		"name":       schema.StringAttribute{MarkdownDescription: "Name of the project (unique in the organization).", Computed: true},
		"org_id":     schema.StringAttribute{MarkdownDescription: "Id of the organization the project belongs to.", Computed: true},
		"email":      schema.StringAttribute{MarkdownDescription: "Contact email address of the project.", Computed: true},
		"created_at": schema.StringAttribute{MarkdownDescription: "When the project was created (ISO 8601).", Computed: true},
		"updated_at": schema.StringAttribute{MarkdownDescription: "When the project was last changed, for example its API key regenerated (ISO 8601).", Computed: true},
	}
	if lookup {
		attrs["id"] = schema.StringAttribute{
			MarkdownDescription: "The project id. Set either `id` or `name`.",
			Optional:            true,
			Computed:            true,
			Validators: []validator.String{validators.StringCheck{
				Desc:    "value must be a project id",
				Summary: "Invalid project id",
				Check: func(v string) error {
					if !importid.ObjectIDRe.MatchString(v) {
						return fmt.Errorf("%q is not a project id such as pr_AbC123xyz", v)
					}
					return nil
				},
			}},
		}
		attrs["name"] = schema.StringAttribute{
			MarkdownDescription: "Exact name of the project (names are unique in the organization). Set either `id` or `name`.",
			Optional:            true,
			Computed:            true,
			Validators:          []validator.String{projectNameValidator()},
		}
	}
	return attrs
}

func (d *projectDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one project of the organization, by `id` or by `name`, with the organization's key " +
			"(`org_api_key`). The project's API key is not readable (the service shows a key's value only at " +
			"creation and regeneration). By `id`: one request; by `name`: the organization's projects are listed " +
			"(one request per 50 projects).",
		Attributes: projectDataAttributes(true),
	}
}

func (d *projectDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *projectDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_project", &resp.Diagnostics) {
		return
	}
	var cfg projectDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var found *client.Project
	if id := cfg.ID.ValueString(); id != "" {
		if found = diagnostics.GetForDataSource(ctx, &resp.Diagnostics, d.data.Client.GetProject, projectDataSourceType, id,
			"Project not found", "the organization has no project"); found == nil {
			return
		}
	} else {
		name := cfg.Name.ValueString()
		var nearMatches []string
		for p, err := range d.data.Client.Projects(ctx) {
			if err != nil {
				diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_projects", "", err)
				return
			}
			switch {
			case p.Deleted:
			case p.Name == name:
				found = &p
			case strings.EqualFold(p.Name, name):
				nearMatches = append(nearMatches, p.Name)
			}
			if found != nil {
				break
			}
		}
		if found == nil {
			diagnostics.AddNotFoundByName(&resp.Diagnostics, "Project not found", "the organization has no project", name, nearMatches)
			return
		}
	}
	m := projectDataFrom(found)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
