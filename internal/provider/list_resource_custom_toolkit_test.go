package provider

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// testAccQRCustomSchemes are the auth schemes the custom toolkit fixtures
// cycle through.
var testAccQRCustomSchemes = []client.CustomAuthScheme{
	{Mode: client.CustomAuthNoAuth},
	{Mode: client.CustomAuthAPIKey, Headers: map[string]string{"Authorization": "Bearer " + client.CustomAPIKeyPlaceholder}},
	{Mode: client.CustomAuthDCROAuth, DiscoveryURL: "https://mcp.example.com/.well-known/oauth-authorization-server"},
}

// TestAccCustomToolkitList_query: 23 custom toolkits (more than the
// service's page of 20) in a project of their own, every auth mode: each
// listed once with its identity and display name, and with include_resource
// as the resource's Read sets it, from the list items alone (no toolkit
// read on its own); a limit stops the paging.
func TestAccCustomToolkitList_query(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	var slugs []string
	for i := range 23 {
		slug, err := c.CreateCustomToolkit(ctx, fmt.Sprintf("qr %02d", i), client.CustomToolkitConfig{
			Name: fmt.Sprintf("Toolkit %02d", i), Description: fmt.Sprintf("Listed toolkit %d", i),
			MCPURL:      fmt.Sprintf("https://mcp%02d.example.com/mcp", i),
			AuthSchemes: []client.CustomAuthScheme{testAccQRCustomSchemes[i%3]},
		})
		if err != nil {
			t.Fatal(err)
		}
		slugs = append(slugs, slug)
	}
	provider := listProvider(key)
	list := func(name, args string) string { return listBlock(customToolkitType, name, "", args) }
	reqs := &requestCounter{t: t, key: key, routes: []string{routeListToolkits, routeGetToolkit}}
	checks := testAccQRExpectIDs("service_custom_toolkit.all", slugs...)
	checks = append(checks,
		querycheck.ExpectResourceDisplayName("service_custom_toolkit.all", listByID("CUSTOM_QR_01"),
			knownvalue.StringExact("Toolkit 01 · mcp01.example.com · API_KEY (CUSTOM_QR_01)")),
		querycheck.ExpectResourceDisplayName("service_custom_toolkit.all", listByID("CUSTOM_QR_21"),
			knownvalue.StringExact("Toolkit 21 · mcp21.example.com · NO_AUTH (CUSTOM_QR_21)")),
	)
	for i := range 3 {
		mode := testAccQRCustomSchemes[(20+i)%3].Mode
		checks = append(checks, querycheck.ExpectResourceKnownValues("service_custom_toolkit.all", listByID(slugs[20+i]),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(slugs[20+i])},
				{Path: tfjsonpath.New("slug"), KnownValue: knownvalue.StringExact(fmt.Sprintf("QR_%02d", 20+i))},
				{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact(fmt.Sprintf("Toolkit %02d", 20+i))},
				{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact(fmt.Sprintf("Listed toolkit %d", 20+i))},
				{Path: tfjsonpath.New("mcp_url"), KnownValue: knownvalue.StringExact(fmt.Sprintf("https://mcp%02d.example.com/mcp", 20+i))},
				// Deprecated, null unless configured (as after an import):
				// the generated block sets mcp_url only.
				{Path: tfjsonpath.New("app_url"), KnownValue: knownvalue.Null()},
				{Path: tfjsonpath.New("auth_scheme").AtMapKey("mode"), KnownValue: knownvalue.StringExact(mode)},
				// Never returned by the service: null, to fill in.
				{Path: tfjsonpath.New("auth_scheme").AtMapKey("headers"), KnownValue: knownvalue.Null()},
				{Path: tfjsonpath.New("auth_scheme").AtMapKey("discovery_url"), KnownValue: knownvalue.Null()},
			}))
	}
	lists := func(n int) map[string]int { return map[string]int{routeListToolkits: n} }
	testAccListTest(t, []resource.TestStep{
		{
			Config: provider + testAccQRConfigCatalog,
			Check:  func(*terraform.State) error { reqs.start(); return nil },
		},
		{
			Query:             true,
			Config:            list("all", "  include_resource = true\n"),
			QueryResultChecks: checks,
		},
		{
			PreConfig:         reqs.expectSteps("23 toolkits with include_resource", lists(2)),
			Query:             true,
			Config:            list("first3", "  limit = 3\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLength("service_custom_toolkit.first3", 3)},
		},
		{
			PreConfig:         reqs.expectSteps("limit 3", lists(1)),
			Query:             true,
			Config:            list("first20", "  limit = 20\n  include_resource = true\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLength("service_custom_toolkit.first20", 20)},
		},
		{
			PreConfig: reqs.expectSteps("limit 20", lists(1)),
			Config:    provider + testAccQRConfigCatalog,
		},
	})
}

// TestAccCustomToolkitList_includeResource: custom toolkits created by
// Terraform, one per auth mode, each imported; with include_resource the
// listed resource is exactly the imported state (headers and discovery_url
// null in both). One list request, no toolkit read on its own.
func TestAccCustomToolkitList_includeResource(t *testing.T) {
	t.Parallel()
	key, _ := testAccIsolatedProject(t)
	provider := listProvider(key)
	cfg := provider + testAccQROpenToolkit + `
resource "service_custom_toolkit" "key" {
  slug        = "qr_key"
  name        = "Keyed tools"
  description = "Tools behind an API key"
  mcp_url     = "https://mcp.key.example/mcp"
  auth_scheme = {
    mode    = "API_KEY"
    headers = { Authorization = "Bearer {{generic_api_key}}" }
  }
}

resource "service_custom_toolkit" "oauth" {
  slug    = "QR_OAUTH"
  name    = "OAuth tools"
  mcp_url = "https://mcp.oauth.example/mcp"
  auth_scheme = {
    mode          = "DCR_OAUTH"
    discovery_url = "https://mcp.oauth.example/.well-known/oauth-authorization-server"
  }
}
`
	var open, keyed, oauth testAccQRImported
	reqs := &requestCounter{t: t, key: key, routes: []string{routeListToolkits, routeGetToolkit}}
	testAccListTest(t, []resource.TestStep{
		{Config: cfg},
		testAccQRImportStep("service_custom_toolkit.open", &open, false),
		testAccQRImportStep("service_custom_toolkit.key", &keyed, false),
		testAccQRImportStep("service_custom_toolkit.oauth", &oauth, false),
		{
			PreConfig: reqs.start,
			Query:     true,
			Config:    listBlock(customToolkitType, "all", "", "  include_resource = true\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_custom_toolkit.all", 3),
				testAccQRExpectImported{addr: "service_custom_toolkit.all", imported: &open},
				testAccQRExpectImported{addr: "service_custom_toolkit.all", imported: &keyed},
				testAccQRExpectImported{addr: "service_custom_toolkit.all", imported: &oauth},
				querycheck.ExpectResourceKnownValues("service_custom_toolkit.all",
					listByID("CUSTOM_QR_KEY"),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("slug"), KnownValue: knownvalue.StringExact("QR_KEY")},
						{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("Tools behind an API key")},
						{Path: tfjsonpath.New("auth_scheme").AtMapKey("mode"), KnownValue: knownvalue.StringExact("API_KEY")},
						{Path: tfjsonpath.New("auth_scheme").AtMapKey("headers"), KnownValue: knownvalue.Null()},
					}),
			},
		},
		{
			PreConfig: reqs.expectSteps("include_resource", map[string]int{routeListToolkits: 1}),
			Config:    cfg,
		},
	})
}

// TestAccCustomToolkitList_serviceError: a failing list request (an
// injected HTTP 500, no retries) is the query's error diagnostic, after one
// request. Not parallel: faults are global.
func TestAccCustomToolkitList_serviceError(t *testing.T) {
	testAccListServiceErrorNoRetry(t, customToolkitType, routeListToolkits)
}

// A toolkit list item gives the Read what its GET would, unless it lacks
// the auth schemes or the MCP server URL (both optional in the contract),
// whichever name (meta.mcp_url, meta.app_url) the service reports it under.
func TestCustomToolkitFromListItem(t *testing.T) {
	for name, meta := range map[string]client.ToolkitMeta{
		"mcp_url":      {Description: "Acme tools", MCPURL: "https://mcp.acme.dev/mcp"},
		"app_url only": {Description: "Acme tools", AppURL: "https://mcp.acme.dev/mcp"},
		"both":         {Description: "Acme tools", MCPURL: "https://mcp.acme.dev/mcp", AppURL: "https://mcp.acme.dev/mcp"},
	} {
		t.Run(name, func(t *testing.T) { testCustomToolkitFromListItem(t, meta) })
	}
}

func testCustomToolkitFromListItem(t *testing.T, meta client.ToolkitMeta) {
	item := client.ToolkitSummary{Slug: "CUSTOM_ACME", Name: "Acme", Type: "custom", AuthSchemes: []string{"API_KEY"}, Meta: meta}
	tk, complete := toolkitFromSummary(item)
	if !complete {
		t.Fatal("complete item read as incomplete")
	}
	var fromList, fromGet customToolkitModel
	fromList.ID = types.StringValue("CUSTOM_ACME")
	fromGet.ID = fromList.ID
	if d := fromList.fillRead(context.Background(), tk); d.HasError() {
		t.Fatal(d)
	}
	get := &client.Toolkit{Slug: "CUSTOM_ACME", Name: "Acme", Type: "custom", Meta: item.Meta,
		AuthConfigDetails: []client.AuthConfigDetail{{Mode: "API_KEY", Name: "Api key"}}}
	if d := fromGet.fillRead(context.Background(), get); d.HasError() {
		t.Fatal(d)
	}
	if !reflect.DeepEqual(fromList, fromGet) {
		t.Fatalf("from the list %+v\nfrom the GET %+v", fromList, fromGet)
	}
	if fromList.Slug.ValueString() != "ACME" || fromList.AuthScheme.Mode.ValueString() != "API_KEY" || !fromList.AuthScheme.Headers.IsNull() {
		t.Fatalf("%+v %+v", fromList, fromList.AuthScheme)
	}
	if fromList.MCPURL.ValueString() != "https://mcp.acme.dev/mcp" || !fromList.AppURL.IsNull() {
		t.Fatalf("mcp_url %s, app_url %s; want the URL and null", fromList.MCPURL, fromList.AppURL)
	}
	if got := customToolkitDisplayName(item); got != "Acme · mcp.acme.dev · API_KEY (CUSTOM_ACME)" {
		t.Errorf("display name %q", got)
	}
	for _, incomplete := range []client.ToolkitSummary{
		{Slug: "CUSTOM_A", Type: "custom", Meta: item.Meta},
		{Slug: "CUSTOM_A", Type: "custom", AuthSchemes: []string{"NO_AUTH"}},
	} {
		if _, complete := toolkitFromSummary(incomplete); complete {
			t.Errorf("%+v read as complete", incomplete)
		}
	}
	if got := customToolkitDisplayName(client.ToolkitSummary{Slug: "CUSTOM_A"}); got != "CUSTOM_A" {
		t.Errorf("display name without name %q", got)
	}
}
