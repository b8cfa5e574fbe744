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
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccProjectDataSources: service_project by id and by name, an unknown
// name as an error naming name, and service_projects filtered by name.
func TestAccProjectDataSources(t *testing.T) {
	t.Parallel()
	c := testAccOrgClient(t)
	prefix := acctest.RandomWithPrefix("tf-project-ds")
	var ids []string
	for _, n := range []string{prefix + "-a", prefix + "-b"} {
		p, err := c.CreateProject(context.Background(), client.CreateProjectRequest{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
		t.Cleanup(func() { _, _ = c.DeleteProject(context.Background(), p.ID, false) })
	}
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []tfresource.TestStep{
			{
				Config:      fmt.Sprintf("data \"service_project\" \"x\" {\n  name = %q\n}\n", strings.ToUpper(prefix+"-a")),
				ExpectError: testAccErrRe(`Project not found`, `name`, `differing only in case: `+regexp.QuoteMeta(prefix+"-a")),
			},
			{
				Config:      "data \"service_project\" \"x\" {\n  id = \"pr_doesnotexist\"\n}\n",
				ExpectError: testAccErrRe(`Project not found`, `id`),
			},
			{
				Config:      fmt.Sprintf("data \"service_project\" \"x\" {\n  id = %q\n  name = %q\n}\n", ids[0], prefix+"-a"),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination`),
			},
			{
				Config: fmt.Sprintf(`
data "service_project" "by_id" {
  id = %q
}
data "service_project" "by_name" {
  name = %q
}
data "service_projects" "mine" {
  name = %q
}
`, ids[0], prefix+"-b", strings.ToUpper(prefix)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_project.by_id", tfjsonpath.New("name"), knownvalue.StringExact(prefix+"-a")),
					statecheck.ExpectKnownValue("data.service_project.by_id", tfjsonpath.New("org_id"), knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))),
					statecheck.ExpectKnownValue("data.service_project.by_id", tfjsonpath.New("created_at"), testAccTimestamp),
					statecheck.ExpectKnownValue("data.service_project.by_name", tfjsonpath.New("id"), knownvalue.StringExact(ids[1])),
					statecheck.ExpectKnownValue("data.service_projects.mine", tfjsonpath.New("ids"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(ids[0]), knownvalue.StringExact(ids[1])})),
					statecheck.ExpectKnownValue("data.service_projects.mine", tfjsonpath.New("projects").AtSliceIndex(1).AtMapKey("name"),
						knownvalue.StringExact(prefix+"-b")),
				},
			},
		},
	})
}
