package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccToolkitsDataSource_all(t *testing.T) {
	t.Parallel()
	const addr = "data.service_toolkits.all"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `data "service_toolkits" "all" {}`,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckTypeSetElemAttr(addr, "slugs.*", "github"),
				resource.TestCheckTypeSetElemAttr(addr, "slugs.*", "stripe"),
				resource.TestCheckTypeSetElemNestedAttrs(addr, "toolkits.*", map[string]string{
					"slug": "github", "name": "GitHub", "auth_schemes.#": "1", "auth_schemes.0": "OAUTH2",
					"service_managed_auth_schemes.0": "OAUTH2", "is_local": "false", "no_auth": "false",
					"categories.0.slug": "developer-tools", "categories.0.name": "Developer Tools", "triggers_count": "3",
				}),
				resource.TestCheckTypeSetElemNestedAttrs(addr, "toolkits.*", map[string]string{
					"slug": "stripe", "auth_schemes.#": "1", "auth_schemes.0": "API_KEY",
					"service_managed_auth_schemes.#": "0", "categories.0.slug": "finance",
				}),
				testCheckToolkits(addr, func(tk map[string]string) error {
					if tk["version"] == "" || tk["logo"] == "" || tk["description"] == "" || tk["tools_count"] == "" {
						return fmt.Errorf("toolkit %s lacks version/logo/description/tools_count: %v", tk["slug"], tk)
					}
					return nil
				}),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("toolkits").AtSliceIndex(0).AtMapKey("triggers_count"), knownvalue.NotNull()),
			},
		}},
	})
}

func TestAccToolkitsDataSource_filters(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_toolkits" "finance" {
  category = "finance"
}
data "service_toolkits" "managed" {
  managed_by = "service"
}
data "service_toolkits" "first3" {
  sort_by   = "alphabetically"
  max_items = 3
}
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				// category: only toolkits in that category.
				resource.TestCheckTypeSetElemAttr("data.service_toolkits.finance", "slugs.*", "stripe"),
				testCheckToolkits("data.service_toolkits.finance", func(tk map[string]string) error {
					for k, v := range tk {
						if strings.HasPrefix(k, "categories.") && strings.HasSuffix(k, ".slug") && v == "finance" {
							return nil
						}
					}
					return fmt.Errorf("toolkit %s is not in category finance: %v", tk["slug"], tk)
				}),
				testCheckNoSlug("data.service_toolkits.finance", "github"),
				// managed_by = service (wire: composio): only toolkits with managed auth.
				resource.TestCheckTypeSetElemAttr("data.service_toolkits.managed", "slugs.*", "github"),
				testCheckNoSlug("data.service_toolkits.managed", "stripe"),
				testCheckToolkits("data.service_toolkits.managed", func(tk map[string]string) error {
					if tk["service_managed_auth_schemes.#"] == "0" {
						return fmt.Errorf("toolkit %s has no service-managed auth scheme", tk["slug"])
					}
					return nil
				}),
				// sort_by + max_items.
				resource.TestCheckResourceAttr("data.service_toolkits.first3", "toolkits.#", "3"),
				resource.TestCheckResourceAttr("data.service_toolkits.first3", "slugs.#", "3"),
				testCheckSortedByName("data.service_toolkits.first3"),
			),
		}},
	})
}

// The emulator's catalog: the first three toolkits by name.
func TestAccToolkitsDataSource_emulatorOrder(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_toolkits" "first3" {
  sort_by   = "alphabetically"
  max_items = 3
}
data "service_toolkits" "crm" {
  category = "crm"
  sort_by  = "alphabetically"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.service_toolkits.first3", tfjsonpath.New("slugs"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("airtable"), knownvalue.StringExact("bill"), knownvalue.StringExact("cal"),
				})),
				statecheck.ExpectKnownValue("data.service_toolkits.crm", tfjsonpath.New("slugs"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("hubspot"), knownvalue.StringExact("salesforce"),
				})),
			},
		}},
	})
}

func TestAccToolkitsDataSource_invalidFilters(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_toolkits" "x" { managed_by = "composio" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid managed_by filter.*Attribute\s+managed_by.*"service"`),
			},
			{
				Config:      `data "service_toolkits" "x" { sort_by = "popularity" }`,
				ExpectError: regexp.MustCompile(`(?s)Attribute\s+sort_by\s+value\s+must\s+be\s+one\s+of`),
			},
			{
				Config:      `data "service_toolkits" "x" { category = "" }`,
				ExpectError: regexp.MustCompile(`(?s)Attribute\s+category\s+string\s+length\s+must\s+be\s+at\s+least\s+1`),
			},
			{
				Config:      `data "service_toolkits" "x" { max_items = 0 }`,
				ExpectError: regexp.MustCompile(`(?s)Attribute\s+max_items\s+value\s+must\s+be\s+at\s+least\s+1`),
			},
		},
	})
}

func TestAccToolkitsDataSource_unknownCategory(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t) // the emulator rejects unknown categories with 400
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config:      `data "service_toolkits" "x" { category = "no-such-category" }`,
			ExpectError: regexp.MustCompile(`(?s)Error\s+reading\s+service_toolkits.*category = "no-such-category".*unknown\s+category`),
		}},
	})
}

// TestToolkitsDataSource_wire checks, against a fake API, that the filters
// reach the wire in the service's vocabulary (managed_by service ⇒
// composio), that every page is followed, and that max_items stops paging.
func TestToolkitsDataSource_wire(t *testing.T) {
	t.Parallel()
	var (
		mu      sync.Mutex
		queries []url.Values
	)
	item := func(slug string) map[string]any {
		return map[string]any{
			"slug": slug, "name": strings.ToUpper(slug), "auth_schemes": []string{"OAUTH2"},
			"composio_managed_auth_schemes": []string{"OAUTH2"}, "is_local_toolkit": false, "type": "native",
			"meta": map[string]any{"description": "d", "logo": "l", "app_url": "https://cc.example", "version": "20251015_00", "tools_count": 2, "triggers_count": 1,
				"categories": []map[string]any{{"id": "crm", "name": "CRM"}}},
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v3.1/toolkits" || r.Header.Get("x-api-key") != "unit-key" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		q := r.URL.Query()
		mu.Lock()
		queries = append(queries, q)
		mu.Unlock()
		var body map[string]any
		switch q.Get("cursor") {
		case "":
			body = map[string]any{"items": []any{item("aa"), item("bb")}, "next_cursor": "page2"}
		case "page2":
			body = map[string]any{"items": []any{item("cc")}, "next_cursor": nil}
		default:
			http.Error(w, `{"error":{"message":"bad cursor"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(srv.Close)
	reset := func() { mu.Lock(); queries = nil; mu.Unlock() }
	recorded := func() []url.Values { mu.Lock(); defer mu.Unlock(); return slices.Clone(queries) }

	provider := fmt.Sprintf("provider \"service\" {\n  base_url = %q\n  api_key = \"unit-key\"\n  max_retries = 0\n}\n", srv.URL)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				PreConfig: reset,
				Config: provider + `
data "service_toolkits" "x" {
  category   = "crm"
  managed_by = "service"
  sort_by    = "alphabetically"
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_toolkits.x", tfjsonpath.New("slugs"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("aa"), knownvalue.StringExact("bb"), knownvalue.StringExact("cc"),
					})),
					statecheck.ExpectKnownValue("data.service_toolkits.x", tfjsonpath.New("toolkits").AtSliceIndex(2), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"slug": knownvalue.StringExact("cc"), "name": knownvalue.StringExact("CC"),
						"logo": knownvalue.StringExact("l"), "description": knownvalue.StringExact("d"),
						"type": knownvalue.StringExact("native"), "app_url": knownvalue.StringExact("https://cc.example"),
						"categories": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
							"slug": knownvalue.StringExact("crm"), "name": knownvalue.StringExact("CRM"),
						})}),
						"auth_schemes":                 knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("OAUTH2")}),
						"service_managed_auth_schemes": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("OAUTH2")}),
						"is_local":                     knownvalue.Bool(false),
						"no_auth":                      knownvalue.Bool(false),
						"tools_count":                  knownvalue.Int64Exact(2),
						"triggers_count":               knownvalue.Int64Exact(1),
						"version":                      knownvalue.StringExact("20251015_00"),
					})),
				},
				Check: func(*terraform.State) error {
					qs := recorded()
					if len(qs) < 2 {
						return fmt.Errorf("expected at least two page requests, got %v", qs)
					}
					for _, q := range qs {
						if q.Get("managed_by") != "composio" || q.Get("category") != "crm" || q.Get("sort_by") != "alphabetically" || q.Has("limit") {
							return fmt.Errorf("unexpected wire query %v (want managed_by=composio, category=crm, sort_by=alphabetically, no limit)", q)
						}
					}
					if !slices.ContainsFunc(qs, func(q url.Values) bool { return q.Get("cursor") == "page2" }) {
						return fmt.Errorf("second page never requested: %v", qs)
					}
					return nil
				},
			},
			{
				PreConfig: reset,
				Config: provider + `
data "service_toolkits" "x" {
  managed_by = "project"
  max_items  = 2
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_toolkits.x", tfjsonpath.New("slugs"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("aa"), knownvalue.StringExact("bb"),
					})),
				},
				Check: func(*terraform.State) error {
					qs := recorded()
					if len(qs) == 0 {
						return fmt.Errorf("no toolkits request recorded")
					}
					for _, q := range qs {
						if q.Get("managed_by") != "project" || q.Get("limit") != "2" || q.Has("cursor") || q.Has("category") || q.Has("sort_by") {
							return fmt.Errorf("unexpected wire query %v (want managed_by=project, limit=2, first page only)", q)
						}
					}
					return nil
				},
			},
			{
				PreConfig: reset,
				Config:    provider + `data "service_toolkits" "x" { managed_by = "all" }`,
				Check: func(*terraform.State) error {
					qs := recorded()
					if len(qs) == 0 {
						return fmt.Errorf("no toolkits request recorded")
					}
					for _, q := range qs {
						if q.Get("managed_by") != "all" {
							return fmt.Errorf("unexpected wire query %v (want managed_by=all)", q)
						}
					}
					return nil
				},
			},
		},
	})
}

func TestToolkitListParams(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		managedBy, want string
	}{{"service", "composio"}, {"all", "all"}, {"project", "project"}, {"", ""}} {
		m := toolkitsDataSourceModel{ManagedBy: types.StringValue(c.managedBy), MaxItems: types.Int64Null()}
		if c.managedBy == "" {
			m.ManagedBy = types.StringNull()
		}
		if got := toolkitListParams(m).ManagedBy; got != c.want {
			t.Errorf("managed_by %q ⇒ wire %q, want %q", c.managedBy, got, c.want)
		}
	}
	p := toolkitListParams(toolkitsDataSourceModel{Category: types.StringValue(" crm "), SortBy: types.StringValue("usage"), MaxItems: types.Int64Value(5)})
	if p.Category != "crm" || p.SortBy != "usage" || p.Limit != 5 {
		t.Errorf("params = %+v", p)
	}
	if p := toolkitListParams(toolkitsDataSourceModel{MaxItems: types.Int64Value(5000)}); p.Limit != 0 {
		t.Errorf("max_items above one page must not set the page size, got %d", p.Limit)
	}
}

func TestManagedByValidator(t *testing.T) {
	t.Parallel()
	for v, wantErr := range map[string]bool{"service": false, "all": false, "project": false, "composio": true, "Service": true, "": true} {
		resp := &validator.StringResponse{}
		managedByValidator().ValidateString(context.Background(), validator.StringRequest{
			Path: path.Root("managed_by"), ConfigValue: types.StringValue(v),
		}, resp)
		if got := resp.Diagnostics.HasError(); got != wantErr {
			t.Errorf("%q: error = %v, want %v", v, got, wantErr)
		}
		if v == "composio" && !strings.Contains(resp.Diagnostics[0].Detail(), `"service"`) {
			t.Errorf("composio hint missing: %s", resp.Diagnostics[0].Detail())
		}
	}
}

// testCheckToolkits runs f on every element of toolkits (flatmap keys
// relative to the element, e.g. "slug", "categories.0.slug").
func testCheckToolkits(addr string, f func(map[string]string) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		attrs := rs.Primary.Attributes
		n := 0
		if _, err := fmt.Sscan(attrs["toolkits.#"], &n); err != nil || n == 0 {
			return fmt.Errorf("%s: no toolkits (toolkits.# = %q)", addr, attrs["toolkits.#"])
		}
		for i := range n {
			prefix := fmt.Sprintf("toolkits.%d.", i)
			tk := map[string]string{}
			for k, v := range attrs {
				if rest, ok := strings.CutPrefix(k, prefix); ok {
					tk[rest] = v
				}
			}
			if err := f(tk); err != nil {
				return err
			}
		}
		return nil
	}
}

func testCheckNoSlug(addr, slug string) resource.TestCheckFunc {
	return testCheckToolkits(addr, func(tk map[string]string) error {
		if tk["slug"] == slug {
			return fmt.Errorf("%s unexpectedly contains toolkit %s", addr, slug)
		}
		return nil
	})
}

func testCheckSortedByName(addr string) resource.TestCheckFunc {
	var names []string
	collect := testCheckToolkits(addr, func(tk map[string]string) error {
		names = append(names, tk["name"])
		return nil
	})
	return func(s *terraform.State) error {
		names = nil
		if err := collect(s); err != nil {
			return err
		}
		if !slices.IsSorted(names) {
			return fmt.Errorf("%s not sorted by name: %v", addr, names)
		}
		return nil
	}
}
