package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*triggerTypesDataSource)(nil)

// NewTriggerTypesDataSource returns the service_trigger_types data source.
func NewTriggerTypesDataSource() datasource.DataSource {
	return &triggerTypesDataSource{dataSourceBase{typeNamed("trigger_types")}}
}

type triggerTypesDataSource struct{ dataSourceBase }

type triggerTypesModel struct {
	Toolkits     types.List         `tfsdk:"toolkits"`
	Slugs        []string           `tfsdk:"slugs"`
	TriggerTypes []triggerTypeModel `tfsdk:"trigger_types"`
}

func (d *triggerTypesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	item := triggerTypeComputedAttributes()
	item["slug"] = schema.StringAttribute{
		MarkdownDescription: "Slug of the trigger type, e.g. `GITHUB_COMMIT_EVENT`.",
		Computed:            true,
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists trigger types, optionally only those of some toolkits, read at the toolkit versions " +
			"the provider is configured with. Follows all pages.",
		Attributes: map[string]schema.Attribute{
			"toolkits": listfilter.StringList("Only list trigger types of these toolkits (slugs such as `github`). All "+
				"toolkits when omitted.", validators.ToolkitSlug()),
			"slugs": listfilter.ComputedStringList("Slugs of the trigger types found, in the order of `trigger_types`."),
			"trigger_types": schema.ListNestedAttribute{
				MarkdownDescription: "The trigger types found, in the order the service returns them.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: item},
			},
		},
	}
}

func (d *triggerTypesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_trigger_types", &resp.Diagnostics) {
		return
	}
	var model triggerTypesModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}
	toolkits := listfilter.Values(ctx, model.Toolkits, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	for i := range toolkits {
		toolkits[i] = strings.ToLower(strings.TrimSpace(toolkits[i]))
	}
	versions := d.data.ToolkitVersions
	var vp *client.ToolkitVersions
	if !versions.IsZero() {
		vp = &versions
	}
	list, err := d.data.Client.ListTriggerTypes(ctx, client.TriggerTypeListParams{ToolkitSlugs: toolkits, Versions: vp})
	if err != nil {
		if client.IsNotFound(err) && len(toolkits) > 0 {
			diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("toolkits"), "reading", "service_trigger_types", "", err)
			return
		}
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", "service_trigger_types", "", err)
		return
	}
	model.Slugs = make([]string, 0, len(list))
	model.TriggerTypes = make([]triggerTypeModel, 0, len(list))
	for i := range list {
		m, diags := triggerTypeToModel(&list[i])
		resp.Diagnostics.Append(diags...)
		model.TriggerTypes = append(model.TriggerTypes, m)
		model.Slugs = append(model.Slugs, list[i].Slug)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &model)...)
}
