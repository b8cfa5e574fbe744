package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/integration-service/terraform-provider-service/internal/client"
)

// authConfigIDsIn returns the ids listed by a service_auth_configs data source.
func authConfigIDsIn(s *terraform.State, name string) (map[string]map[string]string, error) {
	rs, ok := s.RootModule().Resources[name]
	if !ok {
		return nil, fmt.Errorf("%s not in state", name)
	}
	n, err := strconv.Atoi(rs.Primary.Attributes["auth_configs.#"])
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("auth_configs.%d.", i)
		a := rs.Primary.Attributes
		out[a[p+"id"]] = map[string]string{
			"toolkit": a[p+"toolkit"], "status": a[p+"status"], "is_service_managed": a[p+"is_service_managed"], "name": a[p+"name"],
		}
	}
	return out, nil
}

// TestAccAuthConfigsDataSource_filtersAndPaging creates more auth configs than
// one page (the service's default page size is 20) and lists them with the
// filters.
func TestAccAuthConfigsDataSource_filtersAndPaging(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	ctx := context.Background()
	c := testAccClient(t)
	prefix := acctest.RandomWithPrefix("tfacc-acs")
	const n = 23
	ids := make([]string, 0, n)
	for i := 0; i < n; i++ {
		created, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{
			ToolkitSlug: "airtable", Type: client.AuthConfigTypeCustom, AuthScheme: "API_KEY", Name: fmt.Sprintf("%s-%02d", prefix, i),
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, created.ID)
		t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, created.ID) })
	}
	disabledID := ids[0]
	if err := c.DisableAuthConfig(ctx, disabledID); err != nil {
		t.Fatal(err)
	}

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_auth_configs" "enabled" {
  toolkit            = "airtable"
  is_service_managed = false
}

data "service_auth_configs" "all" {
  toolkit       = "airtable"
  show_disabled = true
}

data "service_auth_configs" "managed" {
  toolkit            = "airtable"
  is_service_managed = true
}
`,
			Check: func(s *terraform.State) error {
				enabled, err := authConfigIDsIn(s, "data.service_auth_configs.enabled")
				if err != nil {
					return err
				}
				all, err := authConfigIDsIn(s, "data.service_auth_configs.all")
				if err != nil {
					return err
				}
				managed, err := authConfigIDsIn(s, "data.service_auth_configs.managed")
				if err != nil {
					return err
				}
				for _, id := range ids {
					if _, ok := all[id]; !ok {
						return fmt.Errorf("show_disabled list misses %s (has %d items): pages not followed?", id, len(all))
					}
					if _, ok := managed[id]; ok {
						return fmt.Errorf("is_service_managed = true lists custom auth config %s", id)
					}
					if _, ok := enabled[id]; ok != (id != disabledID) {
						return fmt.Errorf("default list: %s present=%v, want %v", id, ok, id != disabledID)
					}
				}
				for id, a := range all {
					if a["toolkit"] != "airtable" {
						return fmt.Errorf("toolkit filter not applied: %s has toolkit %s", id, a["toolkit"])
					}
				}
				if all[disabledID]["status"] != "DISABLED" || all[ids[1]]["is_service_managed"] != "false" {
					return fmt.Errorf("unexpected attributes: %v / %v", all[disabledID], all[ids[1]])
				}
				return nil
			},
		}},
	})
}

// TestAccE2E_authConfigsPagesOf200: 250 auth configs are read in 2 list
// requests (pages of 200, the service's maximum for this list since
// 2026-09-21), counted by the emulator for the project of their own, during
// one `terraform plan` of the service_auth_configs data source.
func TestAccE2E_authConfigsPagesOf200(t *testing.T) {
	w := newE2EWorkspace(t)
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	const n = 250
	for i := range n {
		if _, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged,
			Name: fmt.Sprintf("page-%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	w.WriteFile("main.tf", listProvider(key)+`
data "service_auth_configs" "all" {}

output "count" {
  value = length(data.service_auth_configs.all.auth_configs)
}
`)
	before := testAccProjectRequests(t, key, routeListAuthConfigs)
	res := w.RunOK("plan", "-no-color")
	if got := testAccProjectRequests(t, key, routeListAuthConfigs) - before; got != 2 {
		t.Errorf("reading %d auth configs took %d list requests, want 2 (pages of 200)", n, got)
	}
	if m := regexp.MustCompile(`count\s*=\s*(\d+)`).FindStringSubmatch(res.Stdout); m == nil || m[1] != strconv.Itoa(n) {
		t.Errorf("the data source read %v auth configs, want %d:\n%s", m, n, res.Stdout)
	}
}
