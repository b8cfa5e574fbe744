package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var _ list.ListResourceWithConfigure = (*projectListResource)(nil)

// NewProjectListResource returns the service_project list resource.
func NewProjectListResource() list.ListResource {
	return &projectListResource{resourceBase{orgTypeNamed("project")}}
}

type projectListResource struct{ resourceBase }

func (r *projectListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	listFilterSchema(ctx, &projectsDataSource{}, "Lists the organization's projects (oldest first), for `terraform query` "+
		"and `-generate-config-out`, with the filter of the `service_projects` data source; an empty `config {}` "+
		"lists every project. Needs the organization's key (`org_api_key`).\n\n"+
		"One request per page of 50 projects (a `limit` stops the paging); a list item holds what the resource's "+
		"state reads, so no project is read on its own. With `include_resource` the result is the state an import "+
		"leaves: `api_key` and `config` null (the service never returns them), `deletion_protection` true. The "+
		"generated block has no `config`: keep it that way (a `config` on an existing project is a plan error).",
		projectFilterNames, resp)
}

func (r *projectListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	f, ok := listParams(ctx, r.data, req, stream, &projectFilters{})
	if !ok {
		return
	}
	items := iter.Seq2[client.Project, error](filteredProjects(ctx, r.data.Client, f))
	stream.Results = streamList(ctx, req, projectType, items, func(p client.Project) listItem {
		return listItem{
			id:          p.ID,
			displayName: displayName(p.ID, p.Name),
			state: readVia(func(ctx context.Context, m *projectModel) diag.Diagnostics {
				return m.fill(ctx, &p)
			}),
		}
	})
}
