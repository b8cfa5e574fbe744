package provider

import (
	"context"
	"net/http"
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

var _ datasource.DataSourceWithConfigure = (*toolkitDataSource)(nil)

// NewToolkitDataSource returns the service_toolkit data source.
func NewToolkitDataSource() datasource.DataSource {
	return &toolkitDataSource{dataSourceBase{typeNamed("toolkit")}}
}

type toolkitDataSource struct{ dataSourceBase }

type toolkitDataSourceModel struct {
	Slug                                     types.String          `tfsdk:"slug"`
	Version                                  types.String          `tfsdk:"version"`
	ResolvedVersion                          types.String          `tfsdk:"resolved_version"`
	Name                                     types.String          `tfsdk:"name"`
	Logo                                     types.String          `tfsdk:"logo"`
	Type                                     types.String          `tfsdk:"type"`
	AppURL                                   types.String          `tfsdk:"app_url"`
	Description                              types.String          `tfsdk:"description"`
	Categories                               []toolkitCategoryRef  `tfsdk:"categories"`
	IsLocal                                  types.Bool            `tfsdk:"is_local"`
	IsDeprecated                             types.Bool            `tfsdk:"is_deprecated"`
	Enabled                                  types.Bool            `tfsdk:"enabled"`
	AvailableVersions                        []string              `tfsdk:"available_versions"`
	AuthSchemes                              []string              `tfsdk:"auth_schemes"`
	ServiceManagedAuthSchemes                []string              `tfsdk:"service_managed_auth_schemes"`
	ToolsCount                               types.Int64           `tfsdk:"tools_count"`
	TriggersCount                            types.Int64           `tfsdk:"triggers_count"`
	AuthConfigDetails                        []authConfigDetailRef `tfsdk:"auth_config_details"`
	RequiredAuthConfigCreationFields         map[string][]string   `tfsdk:"required_auth_config_creation_fields"`
	RequiredConnectedAccountInitiationFields map[string][]string   `tfsdk:"required_connected_account_initiation_fields"`
}

// toolkitCategoryRef is a category as a toolkit carries it (shared with service_toolkits).
type toolkitCategoryRef struct {
	Slug types.String `tfsdk:"slug"`
	Name types.String `tfsdk:"name"`
}

type authConfigDetailRef struct {
	Mode                                         types.String   `tfsdk:"mode"`
	Name                                         types.String   `tfsdk:"name"`
	ServiceManaged                               types.Bool     `tfsdk:"service_managed"`
	AuthConfigCreationFields                     authFieldGroup `tfsdk:"auth_config_creation_fields"`
	ConnectedAccountInitiationFields             authFieldGroup `tfsdk:"connected_account_initiation_fields"`
	RequiredAuthConfigCreationFieldNames         []string       `tfsdk:"required_auth_config_creation_field_names"`
	OptionalAuthConfigCreationFieldNames         []string       `tfsdk:"optional_auth_config_creation_field_names"`
	RequiredConnectedAccountInitiationFieldNames []string       `tfsdk:"required_connected_account_initiation_field_names"`
	OptionalConnectedAccountInitiationFieldNames []string       `tfsdk:"optional_connected_account_initiation_field_names"`
	SecretFieldNames                             []string       `tfsdk:"secret_field_names"`
}

type authFieldGroup struct {
	Required []authFieldRef `tfsdk:"required"`
	Optional []authFieldRef `tfsdk:"optional"`
}

type authFieldRef struct {
	Name        types.String `tfsdk:"name"`
	DisplayName types.String `tfsdk:"display_name"`
	Type        types.String `tfsdk:"type"`
	Description types.String `tfsdk:"description"`
	Required    types.Bool   `tfsdk:"required"`
	Default     types.String `tfsdk:"default"`
	IsSecret    types.Bool   `tfsdk:"is_secret"`
}

// toolkitCategoriesAttribute is the categories list of a toolkit.
func toolkitCategoriesAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		MarkdownDescription: "Categories the toolkit belongs to.",
		Computed:            true,
		NestedObject: schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{
				"slug": schema.StringAttribute{
					MarkdownDescription: "Slug of the category, e.g. `developer-tools` (the `category` filter of `service_toolkits`).",
					Computed:            true,
				},
				"name": schema.StringAttribute{
					MarkdownDescription: "Display name of the category.",
					Computed:            true,
				},
			},
		},
	}
}

func authFieldListAttribute(desc string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		MarkdownDescription: desc,
		Computed:            true,
		NestedObject: schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{
					MarkdownDescription: "Field name: the key to use in `credentials` / `credentials_wo`.",
					Computed:            true,
				},
				"display_name": schema.StringAttribute{
					MarkdownDescription: "Human-readable label of the field.",
					Computed:            true,
				},
				"type": schema.StringAttribute{
					MarkdownDescription: "Value type of the field, e.g. `string`.",
					Computed:            true,
				},
				"description": schema.StringAttribute{
					MarkdownDescription: "What the field is for.",
					Computed:            true,
				},
				"required": schema.BoolAttribute{
					MarkdownDescription: "Whether the field must be given.",
					Computed:            true,
				},
				"default": schema.StringAttribute{
					MarkdownDescription: "Default value the service uses when the field is not given (null when there is none).",
					Computed:            true,
				},
				"is_secret": schema.BoolAttribute{
					MarkdownDescription: "Whether the value is a secret (the service masks it when reading it back; " +
						"prefer `credentials_wo` for such fields). The service's `is_secret`; it is optional in the service's " +
						"contract and absent from its newest document, so where the service leaves it out this is judged by " +
						"the field's name (`api_key`, `client_secret`, `password`, `token`, `private_key`, a name ending in " +
						"`key`, a session id...): treat it as a hint, not a guarantee.",
					Computed: true,
				},
			},
		},
	}
}

func authFieldGroupAttribute(desc string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: desc,
		Computed:            true,
		Attributes: map[string]schema.Attribute{
			"required": authFieldListAttribute("Fields that must be given."),
			"optional": authFieldListAttribute("Fields that may be given."),
		},
	}
}

func (d *toolkitDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one toolkit (an app such as `github` or `stripe`) from the service catalog: its metadata, " +
			"the auth schemes it supports and, per scheme, the fields needed to create an auth config " +
			"(`service_auth_config`) and to initiate a connected account (`service_connected_account`).\n\n" +
			"The toolkit is read at the version the provider is configured with for it (`toolkit_versions`, " +
			"`SERVICE_TOOLKIT_VERSION_<NAME>`, `toolkit_version`), unless `version` is set.\n\n" +
			"For HCL convenience, `required_auth_config_creation_fields` and `required_connected_account_initiation_fields` " +
			"map each auth scheme to the names of its required fields, e.g. " +
			"`data.service_toolkit.github.required_auth_config_creation_fields[\"OAUTH2\"]`.",
		Attributes: map[string]schema.Attribute{
			"slug": schema.StringAttribute{
				MarkdownDescription: "Slug of the toolkit, e.g. `github`. The `service_toolkits` data source lists the slugs.",
				Required:            true,
				Validators:          []validator.String{validators.ToolkitSlug()},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "Toolkit version to read: `YYYYMMDD_NN` or `latest`. Defaults to the version the provider " +
					"is configured with for this toolkit (`latest` when none is pinned).",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{validators.ToolkitVersion()},
			},
			"resolved_version": schema.StringAttribute{
				MarkdownDescription: "The concrete version the service returned, e.g. `20251015_00` when `version` is `latest`.",
				Computed:            true,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Display name of the toolkit.",
				Computed:            true,
			},
			"logo": schema.StringAttribute{
				MarkdownDescription: "URL of the toolkit's logo.",
				Computed:            true,
			},
			"type": schema.StringAttribute{MarkdownDescription: "Provenance: `native` (a toolkit of the service catalog) or `custom` (registered by the project, e.g. with `service_custom_toolkit`).", Computed: true},
			"app_url": schema.StringAttribute{MarkdownDescription: "The toolkit's application URL, or a custom toolkit's MCP server URL (the service's `meta.app_url`, the " +
				"one name its documents give it, or `meta.mcp_url` should the service report that name since its rename of " +
				"2026-11-09, which no document confirms: both are read; may be empty).", Computed: true},
			"description": schema.StringAttribute{
				MarkdownDescription: "Description of the toolkit.",
				Computed:            true,
			},
			"categories": toolkitCategoriesAttribute(),
			"is_local": schema.BoolAttribute{
				MarkdownDescription: "Whether the toolkit is local (runs on the client side rather than on the service).",
				Computed:            true,
			},
			"is_deprecated": schema.BoolAttribute{
				MarkdownDescription: "Whether the toolkit is deprecated, as a top-level `is_deprecated` member says. " +
					"**Deprecated**: no document of the service has that member (its toolkit carries a `deprecated` object " +
					"holding a former toolkit id, not a flag, and the list hides deprecated toolkits unless asked with " +
					"`include_deprecated`), so against the service this is false.",
				DeprecationMessage: "is_deprecated reads a member no document of the service has (a toolkit's `deprecated` object " +
					"holds its former id, not a flag): it is false against the service and will be removed in the next major version.",
				Computed: true,
			},
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the toolkit is enabled on the service.",
				Computed:            true,
			},
			"available_versions": schema.ListAttribute{
				MarkdownDescription: "Versions of the toolkit the service offers, newest first; any of them can be pinned.",
				Computed:            true,
				ElementType:         types.StringType,
			},
			"auth_schemes": schema.ListAttribute{
				MarkdownDescription: "Auth schemes the toolkit supports (the `mode` of each `auth_config_details` entry), " +
					"e.g. `[\"OAUTH2\", \"API_KEY\"]`.",
				Computed:    true,
				ElementType: types.StringType,
			},
			"service_managed_auth_schemes": schema.ListAttribute{
				MarkdownDescription: "Auth schemes for which the service provides managed credentials, i.e. for which " +
					"`service_auth_config` accepts `type = \"use_service_managed_auth\"`. Empty when custom credentials are required.",
				Computed:    true,
				ElementType: types.StringType,
			},
			"tools_count": schema.Int64Attribute{
				MarkdownDescription: "Number of tools in the toolkit.",
				Computed:            true,
			},
			"triggers_count": schema.Int64Attribute{
				MarkdownDescription: "Number of trigger types in the toolkit.",
				Computed:            true,
			},
			"auth_config_details": schema.ListNestedAttribute{
				MarkdownDescription: "One entry per supported auth scheme, with the fields for creating an auth config and " +
					"for initiating a connected account.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"mode": schema.StringAttribute{
							MarkdownDescription: "The auth scheme: `OAUTH2`, `OAUTH1`, `API_KEY`, `BASIC`, `BEARER_TOKEN`, `NO_AUTH`, ... " +
								"(the `auth_scheme` of `service_auth_config`).",
							Computed: true,
						},
						"name": schema.StringAttribute{
							MarkdownDescription: "Display name of the scheme.",
							Computed:            true,
						},
						"service_managed": schema.BoolAttribute{
							MarkdownDescription: "Whether the service offers managed credentials for this scheme.",
							Computed:            true,
						},
						"auth_config_creation_fields": authFieldGroupAttribute(
							"Fields of the auth config's credentials (`credentials` / `credentials_wo` of `service_auth_config` " +
								"with `type = \"use_custom_auth\"`)."),
						"connected_account_initiation_fields": authFieldGroupAttribute(
							"Fields to pre-fill when initiating a connected account (`credentials` / `credentials_wo` of " +
								"`service_connected_account`)."),
						"required_auth_config_creation_field_names": schema.ListAttribute{
							MarkdownDescription: "Names of the required auth config creation fields.",
							Computed:            true,
							ElementType:         types.StringType,
						},
						"optional_auth_config_creation_field_names": schema.ListAttribute{
							MarkdownDescription: "Names of the optional auth config creation fields.",
							Computed:            true,
							ElementType:         types.StringType,
						},
						"required_connected_account_initiation_field_names": schema.ListAttribute{
							MarkdownDescription: "Names of the required connected account initiation fields.",
							Computed:            true,
							ElementType:         types.StringType,
						},
						"optional_connected_account_initiation_field_names": schema.ListAttribute{
							MarkdownDescription: "Names of the optional connected account initiation fields.",
							Computed:            true,
							ElementType:         types.StringType,
						},
						"secret_field_names": schema.ListAttribute{
							MarkdownDescription: "Names of all fields of this scheme (creation and initiation) whose values are secrets.",
							Computed:            true,
							ElementType:         types.StringType,
						},
					},
				},
			},
			"required_auth_config_creation_fields": schema.MapAttribute{
				MarkdownDescription: "Map from auth scheme (`mode`) to the names of its required auth config creation fields, " +
					"e.g. `{ OAUTH2 = [\"client_id\", \"client_secret\"] }`.",
				Computed:    true,
				ElementType: types.ListType{ElemType: types.StringType},
			},
			"required_connected_account_initiation_fields": schema.MapAttribute{
				MarkdownDescription: "Map from auth scheme (`mode`) to the names of its required connected account initiation " +
					"fields, e.g. `{ API_KEY = [\"api_key\"] }`.",
				Computed:    true,
				ElementType: types.ListType{ElemType: types.StringType},
			},
		},
	}
}

func (d *toolkitDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_toolkit", &resp.Diagnostics) {
		return
	}
	var cfg toolkitDataSourceModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	slug := strings.ToLower(strings.TrimSpace(cfg.Slug.ValueString()))
	explicit := !cfg.Version.IsNull() && !cfg.Version.IsUnknown()

	var (
		tk      *client.Toolkit
		err     error
		version string
	)
	if explicit {
		version = strings.TrimSpace(cfg.Version.ValueString())
		wire := version
		if wire == latestVersion {
			wire = ""
		}
		tk, err = d.data.Client.GetToolkit(ctx, slug, wire)
	} else {
		version = d.data.VersionFor(slug)
		if d.data.Cache != nil {
			tk, err = d.data.Cache.Toolkit(ctx, slug)
		} else {
			wire := version
			if wire == latestVersion {
				wire = ""
			}
			tk, err = d.data.Client.GetToolkit(ctx, slug, wire)
		}
	}
	if err != nil {
		switch {
		case !explicit && d.data.addVersionNotFound(ctx, &resp.Diagnostics, slug, err):
		case client.IsNotFound(err):
			shown := version
			if shown == latestVersion {
				shown = ""
			}
			diagnostics.AddLookupError(&resp.Diagnostics, path.Root("slug"), "toolkit", cfg.Slug.ValueString(), shown, err)
		case explicit && client.IsStatus(err, http.StatusBadRequest):
			// The toolkit exists (or the service would have said 404) but not at this version.
			diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("version"), "reading", "service_toolkit", slug+"@"+version, err)
		default:
			diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("slug"), "reading", "service_toolkit", slug, err)
		}
		return
	}

	state := toolkitModelFrom(tk)
	state.Slug = cfg.Slug
	state.Version = types.StringValue(version)
	if state.ResolvedVersion.ValueString() == "" {
		state.ResolvedVersion = types.StringValue(version)
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

// toolkitModelFrom maps a toolkit from the wire (vocabulary: composio ⇒
// service). Slug and Version are left for the caller to set from the config.
func toolkitModelFrom(tk *client.Toolkit) toolkitDataSourceModel {
	m := toolkitDataSourceModel{
		Slug:                                     types.StringValue(tk.Slug),
		ResolvedVersion:                          types.StringValue(tk.Meta.Version),
		Name:                                     types.StringValue(tk.Name),
		Logo:                                     types.StringValue(tk.Meta.Logo),
		Type:                                     types.StringValue(tk.Type),
		AppURL:                                   types.StringValue(tk.Meta.URL()),
		Description:                              types.StringValue(tk.Meta.Description),
		Categories:                               categoryRefsFrom(tk.Meta.Categories),
		IsLocal:                                  types.BoolValue(tk.IsLocalToolkit),
		IsDeprecated:                             types.BoolValue(tk.IsDeprecated),
		Enabled:                                  types.BoolValue(tk.Enabled),
		AvailableVersions:                        toolkitStrings(tk.Meta.AvailableVersions),
		AuthSchemes:                              []string{},
		ServiceManagedAuthSchemes:                toolkitStrings(tk.ComposioManagedAuthSchemes),
		ToolsCount:                               types.Int64Value(int64(tk.Meta.ToolsCount)),
		TriggersCount:                            types.Int64Value(int64(tk.Meta.TriggersCount)),
		AuthConfigDetails:                        make([]authConfigDetailRef, 0, len(tk.AuthConfigDetails)),
		RequiredAuthConfigCreationFields:         map[string][]string{},
		RequiredConnectedAccountInitiationFields: map[string][]string{},
	}
	for _, ad := range tk.AuthConfigDetails {
		creation := fieldGroupFrom(ad.Fields.AuthConfigCreation)
		initiation := fieldGroupFrom(ad.Fields.ConnectedAccountInitiation)
		det := authConfigDetailRef{
			Mode:                                 types.StringValue(ad.Mode),
			Name:                                 types.StringValue(ad.Name),
			ServiceManaged:                       types.BoolValue(tk.SupportsManagedAuth(ad.Mode)),
			AuthConfigCreationFields:             creation,
			ConnectedAccountInitiationFields:     initiation,
			RequiredAuthConfigCreationFieldNames: validators.FieldNames(ad.Fields.AuthConfigCreation.Required),
			OptionalAuthConfigCreationFieldNames: validators.FieldNames(ad.Fields.AuthConfigCreation.Optional),
			RequiredConnectedAccountInitiationFieldNames: validators.FieldNames(ad.Fields.ConnectedAccountInitiation.Required),
			OptionalConnectedAccountInitiationFieldNames: validators.FieldNames(ad.Fields.ConnectedAccountInitiation.Optional),
			SecretFieldNames: secretFieldNames(ad.Fields),
		}
		m.AuthConfigDetails = append(m.AuthConfigDetails, det)
		m.AuthSchemes = append(m.AuthSchemes, ad.Mode)
		m.RequiredAuthConfigCreationFields[ad.Mode] = det.RequiredAuthConfigCreationFieldNames
		m.RequiredConnectedAccountInitiationFields[ad.Mode] = det.RequiredConnectedAccountInitiationFieldNames
	}
	return m
}

func categoryRefsFrom(cats []client.Category) []toolkitCategoryRef {
	out := make([]toolkitCategoryRef, 0, len(cats))
	for _, c := range cats {
		slug := c.Slug
		if slug == "" {
			slug = c.ID
		}
		out = append(out, toolkitCategoryRef{Slug: types.StringValue(slug), Name: types.StringValue(c.Name)})
	}
	return out
}

// fieldGroupFrom maps a field group. The `required` flag of each field is
// taken from the group it is in (as the SDK's getAuthConfigCreationFields
// does), since the service's per-field flag is not always set.
func fieldGroupFrom(g client.FieldGroup) authFieldGroup {
	return authFieldGroup{Required: fieldRefsFrom(g.Required, true), Optional: fieldRefsFrom(g.Optional, false)}
}

func fieldRefsFrom(fs []client.Field, required bool) []authFieldRef {
	out := make([]authFieldRef, 0, len(fs))
	for _, f := range fs {
		out = append(out, authFieldRef{
			Name:        types.StringValue(f.Name),
			DisplayName: types.StringValue(f.DisplayName),
			Type:        types.StringValue(f.Type),
			Description: types.StringValue(f.Description),
			Required:    types.BoolValue(required),
			Default:     types.StringPointerValue(f.Default),
			IsSecret:    types.BoolValue(f.IsSecret),
		})
	}
	return out
}

func secretFieldNames(af client.AuthFields) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, g := range []client.FieldGroup{af.AuthConfigCreation, af.ConnectedAccountInitiation} {
		for _, fs := range [][]client.Field{g.Required, g.Optional} {
			for _, f := range fs {
				if f.IsSecret && !seen[f.Name] {
					seen[f.Name] = true
					out = append(out, f.Name)
				}
			}
		}
	}
	return out
}

func toolkitStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
