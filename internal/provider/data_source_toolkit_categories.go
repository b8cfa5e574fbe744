package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
)

var _ datasource.DataSourceWithConfigure = (*toolkitCategoriesDataSource)(nil)

// NewToolkitCategoriesDataSource returns the service_toolkit_categories data source.
func NewToolkitCategoriesDataSource() datasource.DataSource {
	return &toolkitCategoriesDataSource{dataSourceBase{typeNamed("toolkit_categories")}}
}

type toolkitCategoriesDataSource struct{ dataSourceBase }

type toolkitCategoriesModel struct {
	Categories []toolkitCategoryModel `tfsdk:"categories"`
}

type toolkitCategoryModel struct {
	ID   types.String `tfsdk:"id"`
	Slug types.String `tfsdk:"slug"`
	Name types.String `tfsdk:"name"`
}

func (d *toolkitCategoriesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the categories the service groups toolkits into (for example `developer-tools`). " +
			"Use a category's `slug` as the `category` filter of `service_toolkits`.",
		Attributes: map[string]schema.Attribute{
			"categories": schema.ListNestedAttribute{
				MarkdownDescription: "The toolkit categories, in the order the service returns them.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id": schema.StringAttribute{
							MarkdownDescription: "Identifier of the category.",
							Computed:            true,
						},
						"slug": schema.StringAttribute{
							MarkdownDescription: "Slug of the category, e.g. `developer-tools`.",
							Computed:            true,
						},
						"name": schema.StringAttribute{
							MarkdownDescription: "Display name of the category.",
							Computed:            true,
						},
					},
				},
			},
		},
	}
}

func (d *toolkitCategoriesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_toolkit_categories", &resp.Diagnostics) {
		return
	}
	cats, err := d.data.Client.ListToolkitCategories(ctx)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", "service_toolkit_categories", "", err)
		return
	}
	model := toolkitCategoriesModel{Categories: make([]toolkitCategoryModel, 0, len(cats))}
	for _, c := range cats {
		id, slug := c.ID, c.Slug
		if id == "" {
			id = slug
		}
		if slug == "" {
			slug = id
		}
		model.Categories = append(model.Categories, toolkitCategoryModel{
			ID:   types.StringValue(id),
			Slug: types.StringValue(slug),
			Name: types.StringValue(c.Name),
		})
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &model)...)
}
