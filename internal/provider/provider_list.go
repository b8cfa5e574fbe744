package provider

import (
	"context"
	"fmt"
	"iter"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
)

// Shared plumbing of the list resources (`terraform query`, Terraform
// 1.14+): each lists the service's objects of one resource type, page by
// page, as results that carry the resource's identity, a display name and,
// when the query asks for it (include_resource), the object as the
// resource's Read would store it.

// listFilters is a data source's filter struct (connectedAccountFilters,
// ...), which the list resource of the same objects shares: it turns the
// filter values into the client's list params P.
type listFilters[P any] interface {
	params(ctx context.Context, diags *diag.Diagnostics) P
}

// toolkitFilter is a filter struct some of whose filters name toolkits of
// the catalog (toolkit, toolkit_slugs, toolkits): listParams checks each
// named toolkit before the listing starts, so that a typo fails the query
// with the closest slug, as the resources do at plan, instead of listing
// nothing.
type toolkitFilter interface {
	filteredToolkits() []filterValue
}

// filterValue is one value of a filter and the path of the attribute (or
// list element) that holds it.
type filterValue struct {
	attr  path.Path
	value string
}

// stringFilterValues returns the known values of the string filter name
// (nothing when it is null or unknown).
func stringFilterValues(name string, v types.String) []filterValue {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	return []filterValue{{attr: path.Root(name), value: v.ValueString()}}
}

// listFilterValues returns the known elements of the list filter name, each
// at its index.
func listFilterValues(name string, l types.List) []filterValue {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []filterValue
	for i, e := range l.Elements() {
		if s, ok := e.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			out = append(out, filterValue{attr: path.Root(name).AtListIndex(i), value: s.ValueString()})
		}
	}
	return out
}

// checkFilteredToolkits reports, on its attribute, each toolkit a filter
// names that the service does not have (lookupToolkit: the read the
// resources make at plan, cached per provider process, and the same
// did-you-mean).
func checkFilteredToolkits(ctx context.Context, data *ProviderData, f toolkitFilter, diags *diag.Diagnostics) {
	for _, v := range f.filteredToolkits() {
		data.lookupToolkit(ctx, diags, v.attr, v.value, false)
	}
}

// listReady reports whether the list can start (readReady: the provider
// is configured, and its toolkit_versions keys name toolkits); when it
// cannot, the query's results are that error.
func listReady(ctx context.Context, data *ProviderData, stream *list.ListResultsStream) bool {
	var diags diag.Diagnostics
	if !readReady(ctx, data, "list resource", &diags) {
		stream.Results = listError(diags)
		return false
	}
	return true
}

// listParams reads the query's config into cfg (a pointer to a filter
// struct) and returns the client's list params for it. ok is false, with
// the query's results set to the error, when the list cannot start: the
// provider is not configured or the filters are invalid, including a
// toolkit the catalog does not have (toolkitFilter).
func listParams[P any](ctx context.Context, data *ProviderData, req list.ListRequest, stream *list.ListResultsStream, cfg listFilters[P]) (p P, ok bool) {
	if !listReady(ctx, data, stream) {
		return p, false
	}
	diags := codec.Get(ctx, req.Config, cfg)
	if !diags.HasError() {
		p = cfg.params(ctx, &diags)
	}
	if tf, isTF := cfg.(toolkitFilter); isTF && !diags.HasError() {
		checkFilteredToolkits(ctx, data, tf, &diags)
	}
	if diags.HasError() {
		stream.Results = listError(diags)
		return p, false
	}
	return p, true
}

// listFilterSchema is the config schema of a list resource that filters
// as the data source ds does: ds's attributes of those names, optional,
// with the same descriptions and validators.
func listFilterSchema(ctx context.Context, ds datasource.DataSource, desc string, names []string, resp *list.ListResourceSchemaResponse) {
	var dsResp datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &dsResp)
	attrs, err := listfilter.ForListResource(dsResp.Schema, names...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid list resource schema", err.Error())
		return
	}
	resp.Schema = schema.Schema{MarkdownDescription: desc, Attributes: attrs}
}

// readVia is a listItem's state function for a resource whose model M
// apply fills as the resource's Read does.
func readVia[M any](apply func(ctx context.Context, m *M) diag.Diagnostics) func(context.Context, *tfsdk.State) diag.Diagnostics {
	return func(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
		var m M
		diags := codec.Get(ctx, *st, &m)
		if diags.HasError() {
			return diags
		}
		if diags.Append(apply(ctx, &m)...); diags.HasError() {
			return diags
		}
		diags.Append(codec.Set(ctx, st, &m)...)
		return diags
	}
}

// listItem is what a list resource makes of one service object.
type listItem struct {
	id          string
	displayName string
	// state fills the resource's state (a state holding only the id, as
	// an import leaves it) the way the resource's Read does. Called only
	// for include_resource.
	state func(ctx context.Context, st *tfsdk.State) diag.Diagnostics
}

// streamList turns the items of a service listing into the query's results:
// one result per item until the request's limit (a limit stops the paging:
// no page beyond it is requested), and an error of the listing as a
// diagnostic result, never a silent stop. typeName names the list resource
// in the error.
func streamList[T any](ctx context.Context, req list.ListRequest, typeName string, items iter.Seq2[T, error], item func(T) listItem) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var n int64
		if req.Limit < 0 {
			return
		}
		for obj, err := range items {
			if err != nil {
				var diags diag.Diagnostics
				diagnostics.AddAPIError(&diags, "listing", typeName, "", err)
				push(list.ListResult{Diagnostics: diags})
				return
			}
			n++
			if !push(listResult(ctx, req, item(obj))) || (req.Limit > 0 && n >= req.Limit) {
				return
			}
		}
	}
}

// listResult is one result: identity, display name and, when asked for,
// the resource.
func listResult(ctx context.Context, req list.ListRequest, it listItem) list.ListResult {
	res := req.NewListResult(ctx)
	res.DisplayName = it.displayName
	identity.Set(ctx, res.Identity, it.id, &res.Diagnostics)
	if !req.IncludeResource || it.state == nil {
		return res
	}
	st := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	res.Diagnostics.Append(st.SetAttribute(ctx, path.Root("id"), it.id)...)
	if res.Diagnostics.HasError() {
		return res
	}
	res.Diagnostics.Append(it.state(ctx, &st)...)
	res.Resource.Raw = st.Raw
	return res
}

// listError is a query's results when the list cannot start (say the
// provider is not configured, or the filters are invalid).
func listError(diags diag.Diagnostics) iter.Seq[list.ListResult] {
	return list.ListResultsStreamDiagnostics(diags)
}

// displayName is how a result reads in `terraform query`: what a person
// recognises first, then the id, shortened, e.g.
// "github · Support bot (ac_8XyZ…)". Empty parts are left out.
func displayName(id string, parts ...string) string {
	s := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if s != "" {
			s += " · "
		}
		s += p
	}
	short := id
	if utf8.RuneCountInString(id) > 12 {
		short = string([]rune(id)[:10]) + "…"
	}
	if s == "" {
		return id
	}
	return fmt.Sprintf("%s (%s)", s, short)
}
