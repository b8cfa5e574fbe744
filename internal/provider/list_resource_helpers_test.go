package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// Helpers of the list resource tests (list_resource_*_test.go): list
// blocks, the comparison of include_resource results with imported states,
// request counting, the service error step.

// listVersionChecks: list resources and `terraform query` need Terraform
// 1.14.
var listVersionChecks = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// listProvider configures the provider with an isolated project's API key,
// and extra lines (e.g. max_retries). In a test whose query steps follow
// configuration steps it goes in the configuration steps only: a query
// step's file sits beside the prior step's configuration, whose provider
// block it uses (a second one would be a duplicate).
func listProvider(key string, extra ...string) string {
	return fmt.Sprintf("provider \"service\" {\n  api_key = %q\n%s}\n", key, strings.Join(extra, ""))
}

// listBlock renders a list block of resourceType named name: config holds
// the filter lines, extra the block's own arguments (limit,
// include_resource).
func listBlock(resourceType, name, config, extra string) string {
	return fmt.Sprintf("list %q %q {\n  provider = service\n%s  config {\n%s  }\n}\n", resourceType, name, extra, config)
}

// listQuery is one list block of a filter test: its name, filter lines
// (config), own arguments (extra, as listBlock's) and how many results it
// lists (want).
type listQuery struct {
	name, config, extra string
	want                int
}

// listQueries renders a list block of resourceType per query, and the check
// of each one's number of results, in the same order.
func listQueries(resourceType string, queries ...listQuery) (string, []querycheck.QueryResultCheck) {
	var blocks strings.Builder
	lengths := make([]querycheck.QueryResultCheck, 0, len(queries))
	for _, q := range queries {
		blocks.WriteString(listBlock(resourceType, q.name, q.config, q.extra))
		lengths = append(lengths, querycheck.ExpectLength(resourceType+"."+q.name, q.want))
	}
	return blocks.String(), lengths
}

// listIDCheck is the identity check of the object id.
func listIDCheck(id string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": knownvalue.StringExact(id)}
}

// listShortID is the id as a display name ends: the first 10 characters and
// an ellipsis (service ids are longer than 12).
func listShortID(id string) string { return regexp.QuoteMeta(id[:10]) + "…" }

// importCapture keeps the state each import step read back, by id, for a
// later query step to compare its include_resource results with.
type importCapture map[string]map[string]string

// step is an import (terraform import, not persisted) of id into addr,
// whose configuration is config, capturing the imported attributes.
func (c importCapture) step(config, addr, id string) resource.TestStep {
	return resource.TestStep{
		Config:        config,
		ResourceName:  addr,
		ImportState:   true,
		ImportStateId: id,
		ImportStateCheck: func(states []*terraform.InstanceState) error {
			for _, s := range states {
				if s.ID == id {
					c[id] = s.Attributes
					return nil
				}
			}
			return fmt.Errorf("import of %s read back no state of it", id)
		},
	}
}

// steps are a configuration step (the provider of the project of key and
// the catalog) then one import step per id into the resource "imported" of
// resourceType, whose configuration body is body, capturing each state.
func (c importCapture) steps(key, resourceType, body string, ids ...string) []resource.TestStep {
	provider := listProvider(key)
	config := provider + fmt.Sprintf("resource %q \"imported\" {\n%s}\n", resourceType, body)
	steps := []resource.TestStep{{Config: provider + `data "service_toolkit_categories" "any" {}`}}
	for _, id := range ids {
		steps = append(steps, c.step(config, resourceType+".imported", id))
	}
	return steps
}

// matches is a query check: every result of the list block at address (want
// of them) carries a resource object equal to the state an import of the
// same object read back.
func (c importCapture) matches(address string, want int) querycheck.QueryResultCheck {
	return importMatch{address: address, want: want, imported: c}
}

type importMatch struct {
	address  string
	want     int
	imported importCapture
}

func (m importMatch) CheckQuery(_ context.Context, req querycheck.CheckQueryRequest, resp *querycheck.CheckQueryResponse) {
	var problems []string
	n := 0
	for _, res := range req.Query {
		if strings.TrimPrefix(res.Address, "list.") != m.address {
			continue
		}
		n++
		id, _ := res.Identity["id"].(string)
		want, ok := m.imported[id]
		if !ok {
			problems = append(problems, fmt.Sprintf("result %s: no import of it to compare with", id))
			continue
		}
		if res.ResourceObject == nil {
			problems = append(problems, fmt.Sprintf("result %s: no resource object (include_resource)", id))
			continue
		}
		got := flattenQueryObject(res.ResourceObject)
		for _, k := range sortedUnion(got, want) {
			if k == "%" { // the flatmap's count of the root's attributes
				continue
			}
			g, gok := got[k]
			w, wok := want[k]
			if g != w || gok != wok {
				problems = append(problems, fmt.Sprintf("result %s: %s is %s in the listing, %s after the import", id, k, quoteOrAbsent(g, gok), quoteOrAbsent(w, wok)))
			}
		}
	}
	if n != m.want {
		problems = append(problems, fmt.Sprintf("%d results compared, want %d", n, m.want))
	}
	if len(problems) > 0 {
		resp.Error = fmt.Errorf("%s: include_resource differs from the imported state:\n%s", m.address, strings.Join(problems, "\n"))
	}
}

// flattenQueryObject flattens a resource object of a query result (as JSON
// decodes it) the way terraform.InstanceState.Attributes holds it, with
// the count of its attributes at "%", so that a listed resource compares
// with an imported one.
func flattenQueryObject(obj map[string]any) map[string]string {
	out := map[string]string{"%": strconv.Itoa(len(obj))}
	for k, v := range obj {
		flattenQueryValue(out, k, v)
	}
	return out
}

// flattenQueryValue writes v (a value of a query result's resource object,
// as JSON decodes it) into out the way terraform.InstanceState.Attributes
// holds it: a null is absent, a list is key.# and key.N, a map or object
// key.% and key.K.
func flattenQueryValue(out map[string]string, key string, v any) {
	switch x := v.(type) {
	case nil:
	case string:
		out[key] = x
	case bool:
		out[key] = strconv.FormatBool(x)
	case float64:
		out[key] = strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		out[key] = x.String()
	case []any:
		out[key+".#"] = strconv.Itoa(len(x))
		for i, e := range x {
			flattenQueryValue(out, key+"."+strconv.Itoa(i), e)
		}
	case map[string]any:
		out[key+".%"] = strconv.Itoa(len(x))
		for k, e := range x {
			flattenQueryValue(out, key+"."+k, e)
		}
	default:
		out[key] = fmt.Sprintf("%v (%T)", x, x)
	}
}

func sortedUnion(a, b map[string]string) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func quoteOrAbsent(s string, ok bool) string {
	if !ok {
		return "absent (null)"
	}
	return strconv.Quote(s)
}

// requestCounter counts an isolated project's requests per route between
// two points of a test: start starts a count; expect checks one route's
// since, expectSteps (a PreConfig) every route's and starts the next.
type requestCounter struct {
	t      *testing.T
	key    string
	routes []string
	before map[string]int
}

func (r *requestCounter) now() map[string]int {
	out := map[string]int{}
	for _, route := range r.routes {
		out[route] = testAccProjectRequests(r.t, r.key, route)
	}
	return out
}

func (r *requestCounter) start() { r.before = r.now() }

// since returns the requests to route since start.
func (r *requestCounter) since(route string) int {
	return testAccProjectRequests(r.t, r.key, route) - r.before[route]
}

// expect reports an error unless route had want requests since start;
// what says what they were (e.g. "list requests (one per page)").
func (r *requestCounter) expect(route string, want int, what string) {
	r.t.Helper()
	if got := r.since(route); got != want {
		r.t.Errorf("the query made %d %s, want %d", got, what, want)
	}
}

// expectSteps returns a PreConfig that checks the requests to each route
// since start (routes not in want: none) and starts again.
func (r *requestCounter) expectSteps(what string, want map[string]int) func() {
	return func() {
		r.t.Helper()
		now := r.now()
		for _, route := range r.routes {
			if got := now[route] - r.before[route]; got != want[route] {
				r.t.Errorf("%s: %d requests to %s, want %d", what, got, route, want[route])
			} else {
				r.t.Logf("%s: %d requests to %s", what, got, route)
			}
		}
		r.before = now
	}
}

// listByID selects the query result of the object id.
func listByID(id string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(listIDCheck(id))
}

// listValue checks the attribute attr of a query result's resource.
func listValue(attr string, v knownvalue.Check) querycheck.KnownValueCheck {
	return querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: v}
}

// testAccListTest runs the steps of a list resource test (Terraform 1.14+).
func testAccListTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   listVersionChecks,
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps:                    steps,
	})
}

// testAccListServiceError: an error of the service (a fault the emulator
// injects on every API request) reaches the user as a diagnostic of the
// query naming the list resource of listType; the same query (a list block
// named "mine" whose config is filters) then lists the one object id once
// the fault is gone. Not for parallel tests: faults are global.
func testAccListServiceError(t *testing.T, listType, filters, id string) {
	t.Helper()
	query := `provider "service" {}` + "\n" + listBlock(listType, "mine", filters, "")
	testAccListTest(t, []resource.TestStep{
		{Config: `data "service_toolkit_categories" "any" {}`},
		{
			PreConfig:   func() { testAccEmulatorSetFaults(t, "status=500:1") },
			Query:       true,
			Config:      query,
			ExpectError: testAccErrRe(`Error listing `+listType, `injected fault: HTTP 500`, `HTTP status: 500`),
		},
		{
			PreConfig: func() { testAccEmulatorSetFaults(t, "") },
			Query:     true,
			Config:    query,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength(listType+".mine", 1),
				querycheck.ExpectIdentity(listType+".mine", listIDCheck(id)),
			},
		},
	})
}

// testAccListServiceErrorNoRetry: a failing list request of the list
// resource of listType (an injected HTTP 500, no retries) is the query's
// error diagnostic, after one request to route, in a project of its own.
// Not for parallel tests: faults are global.
func testAccListServiceErrorNoRetry(t *testing.T, listType, route string) {
	t.Helper()
	key, _ := testAccIsolatedProject(t)
	provider := listProvider(key, "  max_retries = 0\n")
	var before int
	testAccListTest(t, []resource.TestStep{
		{Config: provider + testAccQRConfigCatalog},
		{
			PreConfig: func() {
				before = testAccEmulatorStatsNow(t).Requests[route]
				testAccEmulatorSetFaults(t, "status=500:1")
			},
			Query:       true,
			Config:      listBlock(listType, "all", "", ""),
			ExpectError: testAccErrRe(`Error listing `+listType, `HTTP status: 500`),
		},
		{
			PreConfig: func() {
				testAccEmulatorDo(t, "PUT", "/_emulator/faults", rawBody(""), nil)
				if got := testAccEmulatorStatsNow(t).Requests[route] - before; got != 1 {
					t.Errorf("failing query: %d list requests, want 1", got)
				}
			},
			Config: provider + testAccQRConfigCatalog,
		},
	})
}

// testAccQROpenToolkit is a NO_AUTH custom toolkit, "open", for the list
// tests of custom toolkits and of the MCP servers that serve one.
const testAccQROpenToolkit = `
resource "service_custom_toolkit" "open" {
  slug    = "qr open"
  name    = "Open tools"
  mcp_url = "https://mcp.open.example/mcp"
  auth_scheme = {
    mode = "NO_AUTH"
  }
}
`

// testAccQRImportStep imports the resource name (of the prior step's
// configuration) and captures its state into into; verify compares the
// import with the state as well.
func testAccQRImportStep(name string, into *testAccQRImported, verify bool) resource.TestStep {
	return resource.TestStep{ResourceName: name, ImportState: true, ImportStateVerify: verify, ImportStateCheck: into.capture}
}
