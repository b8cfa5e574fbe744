package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// testAccMCPServerViaAPI creates an MCP server through the API (deleted when
// the test ends).
func testAccMCPServerViaAPI(t *testing.T, r client.CreateMCPServerRequest) *client.MCPServer {
	t.Helper()
	c := testAccClient(t)
	m, err := c.CreateMCPServer(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteMCPServer(context.Background(), m.ID) })
	return m
}

func TestAccMCPServerDataSources(t *testing.T) {
	t.Parallel()
	gh, gm := testAccMCPExistingACs(t)
	name := testAccMCPName()
	m := testAccMCPServerViaAPI(t, client.CreateMCPServerRequest{Name: name, AuthConfigIDs: []string{gh, gm}, AllowedTools: []string{"GMAIL_SEND_EMAIL"}})
	other := testAccMCPServerViaAPI(t, client.CreateMCPServerRequest{Name: name + "-2", AuthConfigIDs: []string{gh}})
	byID, byName, list := "data.service_mcp_server.by_id", "data.service_mcp_server.by_name", "data.service_mcp_servers.gmail"
	checks := func(addr string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(m.ID)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("auth_config_ids"), testAccStrings(gh, gm)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("allowed_tools"), testAccStrings("GMAIL_SEND_EMAIL")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("toolkits"), testAccStrings("github", "gmail")),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("mcp_url"), knownvalue.StringExact(m.MCPURL)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("managed_auth_via_service"), knownvalue.Bool(false)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("server_instance_count"), knownvalue.Int64Exact(0)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), testAccTimestamp),
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			testAccPlanError(`data "service_mcp_server" "x" { name = "no such server" }`, `Attribute name: the project has no MCP server named "no such server"`),
			testAccPlanError(`data "service_mcp_server" "x" { id = "00000000-0000-4000-8000-000000000000" }`, `Attribute id: the project has no MCP server "00000000-0000-4000-8000-000000000000"`),
			{
				Config:      `data "service_mcp_server" "x" {}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Exactly one of these attributes must be configured: \[id,name\]`),
			},
			testAccPlanError(`data "service_mcp_servers" "x" { auth_config_ids = ["nope"] }`, `auth_config_ids`, `must be an auth config id such as ac_AbC123`),
			{
				Config: fmt.Sprintf(`
data "service_mcp_server" "by_id" {
  id = %q
}

data "service_mcp_server" "by_name" {
  name = %q
}

data "service_mcp_servers" "gmail" {
  auth_config_ids = [%q]
}

data "service_mcp_servers" "named" {
  name = %q
}
`, m.ID, name, gm, name),
				ConfigStateChecks: append(append(checks(byID), checks(byName)...),
					statecheck.ExpectKnownValue(list, tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(m.ID)})),
					statecheck.ExpectKnownValue(list, tfjsonpath.New("servers").AtSliceIndex(0).AtMapKey("allowed_tools"), testAccStrings("GMAIL_SEND_EMAIL")),
					// name is a substring filter: both servers, newest first.
					statecheck.ExpectKnownValue("data.service_mcp_servers.named", tfjsonpath.New("ids"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(other.ID), knownvalue.StringExact(m.ID)})),
				),
			},
		},
	})
}
