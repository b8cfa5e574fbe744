package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccProjectList_query: the service_project list resource filtered by
// name lists the matching projects, with their identity, a display name of
// their name and, with include_resource, the state an import's Read leaves
// (config and api_key null, the defaults). One list request per page.
// Not parallel: it counts the process-wide list requests.
func TestAccProjectList_query(t *testing.T) {
	c := testAccOrgClient(t)
	testAccRequireEmulator(t)
	name := acctest.RandomWithPrefix("tf-project-list")
	p, err := c.CreateProject(context.Background(), client.CreateProjectRequest{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.DeleteProject(context.Background(), p.ID, false) })
	total := 0
	for _, err := range c.Projects(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		total++
	}
	pages := max(1, (total+client.ProjectListPageSize-1)/client.ProjectListPageSize)
	var before int
	query := "provider \"service\" {}\n" + listBlock(projectType, "mine", fmt.Sprintf("    name = %q\n", strings.ToUpper(name)), "  include_resource = true\n")
	testAccListTest(t, []tfresource.TestStep{
		{Config: `data "service_projects" "any" {}`},
		{
			PreConfig: func() { before = testAccEmulatorStatsNow(t).Requests[routeListProjects] },
			Query:     true,
			Config:    query,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_project.mine", 1),
				querycheck.ExpectIdentity("service_project.mine", listIDCheck(p.ID)),
				querycheck.ExpectResourceDisplayName("service_project.mine", listByID(p.ID),
					knownvalue.StringRegexp(regexp.MustCompile(`^`+regexp.QuoteMeta(name)+` \(`+listShortID(p.ID)+`\)$`))),
				querycheck.ExpectResourceKnownValues("service_project.mine", listByID(p.ID), []querycheck.KnownValueCheck{
					listValue("name", knownvalue.StringExact(name)),
					listValue("org_id", knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))),
					listValue("created_at", testAccTimestamp),
					listValue("api_key", knownvalue.Null()),
					listValue("config", knownvalue.Null()),
					listValue("deletion_protection", knownvalue.Bool(true)),
					listValue("revoke_on_delete", knownvalue.Bool(false)),
				}),
			},
		},
		{
			Config: `data "service_projects" "any" {}`,
			Check: func(*terraform.State) error {
				// The query step's list requests (the data source of this step lists once more).
				if got := testAccEmulatorStatsNow(t).Requests[routeListProjects] - before; got != pages+pages {
					return fmt.Errorf("the query and this step's data source made %d list requests, want %d (%d per listing)", got, 2*pages, pages)
				}
				return nil
			},
		},
	})
}
