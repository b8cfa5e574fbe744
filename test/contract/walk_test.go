package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/emulator"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const apiKey = "emulator-key"

// walker sends raw requests to the emulator for the scripted walk.
type walker struct {
	t        *testing.T
	base     string
	hc       *http.Client
	accepted []string // what reject saw accepted: "what: METHOD /api/v3.1/path"
	slugs    []string // the catalog's toolkits
}

func (w *walker) toolkitSlugs() []string { return w.slugs }

// reply is a decoded response.
type reply struct {
	status int
	body   any
}

func (r reply) str(keys ...string) string { s, _ := testutil.Dig(r.body, keys...).(string); return s }

func (r reply) items() []any { l, _ := testutil.Dig(r.body, "items").([]any); return l }

// orgOwnerPrefix: the organization operations the walk calls take an
// organization API key (x-org-api-key); every other one a project key.
const orgOwnerPrefix = "/org/owner/"

// do sends method path (under /api/v3.1, or absolute when it starts with /_)
// with query and a JSON body (nil = none), with the credential the operation
// takes.
func (w *walker) do(method, path string, query url.Values, body any) reply {
	w.t.Helper()
	creds := map[string]string{"x-api-key": apiKey}
	if strings.HasPrefix(path, orgOwnerPrefix) {
		creds = map[string]string{"x-org-api-key": emulator.DefaultOrgAPIKey}
	}
	return w.doWith(creds, method, path, query, body)
}

// doWith is do with the given credential headers.
func (w *walker) doWith(creds map[string]string, method, path string, query url.Values, body any) reply {
	w.t.Helper()
	u := w.base + "/api/v3.1" + path
	if strings.HasPrefix(path, "/_") {
		u = w.base + path
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, u, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	for k, v := range creds {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("content-type", "application/json")
	}
	resp, err := w.hc.Do(req)
	if err != nil {
		w.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode}
	_ = json.Unmarshal(data, &r.body)
	return r
}

// must is do that fails the test unless the status is 2xx.
func (w *walker) must(method, path string, query url.Values, body any) reply {
	w.t.Helper()
	r := w.do(method, path, query, body)
	if r.status < 200 || r.status >= 300 {
		w.t.Fatalf("walk: %s %s: status %d: %v", method, path, r.status, r.body)
	}
	return r
}

// reject is do for a request the emulator must refuse with a 4xx. What it
// accepts is noted; TestContract fails on it unless the type check already
// reports the request as accepted-invalid (then exceptions.json decides).
func (w *walker) reject(what, method, path string, query url.Values, body any) {
	w.t.Helper()
	r := w.do(method, path, query, body)
	if r.status < 400 || r.status >= 500 {
		w.accepted = append(w.accepted, fmt.Sprintf("%s: %s /api/v3.1%s", what, method, path))
	}
}

// checkAccepted fails for each request reject saw accepted, unless the type
// check reports it as accepted-invalid (invalid, from classify: then the
// deviation check decides).
func (w *walker) checkAccepted(invalid map[string]bool) {
	w.t.Helper()
	for _, a := range w.accepted {
		if _, req, _ := strings.Cut(a, ": "); !invalid[req] {
			w.t.Errorf("walk: the emulator accepted %s", a)
		}
	}
}

// pages follows next_cursor with a small limit and returns every item.
func (w *walker) pages(path string, query url.Values, limit int) []any {
	w.t.Helper()
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("limit", fmt.Sprint(limit))
	var all []any
	for range 50 {
		r := w.must("GET", path, q, nil)
		all = append(all, r.items()...)
		next, _ := testutil.Dig(r.body, "next_cursor").(string)
		if next == "" {
			return all
		}
		q.Set("cursor", next)
	}
	w.t.Fatalf("walk: %s never ends", path)
	return nil
}

// configured is a custom auth config of a scheme.
type configured struct {
	scheme
	id string
}

// scheme is one auth scheme of a toolkit, from GET /toolkits/{slug}.
type scheme struct {
	toolkit  string
	mode     string
	managed  bool
	creation []string // required auth config fields
	initReq  []string // required connected account fields
}

func fieldNames(v any) []string {
	var out []string
	for _, f := range asList(v) {
		if n, _ := testutil.Dig(f, "name").(string); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// configFor fills the required properties of a JSON schema with placeholders.
func configFor(schema any) map[string]any {
	out := map[string]any{}
	for _, r := range asList(testutil.Dig(schema, "required")) {
		name, _ := r.(string)
		switch testutil.Dig(schema, "properties", name, "type") {
		case "integer", "number":
			out[name] = 1
		case "boolean":
			out[name] = true
		default:
			out[name] = "walk-" + name
		}
	}
	return out
}

func asList(v any) []any { l, _ := v.([]any); return l }

func dummyFields(names []string) map[string]any {
	m := map[string]any{}
	for _, n := range names {
		m[n] = "walk-" + n
	}
	return m
}

// walkCatalog reads toolkits, tools and trigger types (several pages each)
// and returns every auth scheme the catalog offers.
func (w *walker) walkCatalog() []scheme {
	w.t.Helper()
	toolkits := w.pages("/toolkits", nil, 3)
	w.must("GET", "/toolkits/categories", nil, nil)
	w.must("GET", "/toolkits", url.Values{"category": {"productivity"}, "sort_by": {"alphabetically"}}, nil)
	var schemes []scheme
	var slugs []string
	for _, tk := range toolkits {
		slug, _ := testutil.Dig(tk, "slug").(string)
		slugs = append(slugs, slug)
		r := w.must("GET", "/toolkits/"+slug, nil, nil)
		managed := map[string]bool{}
		for _, m := range asList(testutil.Dig(r.body, "composio_managed_auth_schemes")) {
			managed[fmt.Sprint(m)] = true
		}
		for _, d := range asList(testutil.Dig(r.body, "auth_config_details")) {
			mode, _ := testutil.Dig(d, "mode").(string)
			schemes = append(schemes, scheme{
				toolkit: slug, mode: mode, managed: managed[mode],
				creation: fieldNames(testutil.Dig(d, "fields", "auth_config_creation", "required")),
				initReq:  fieldNames(testutil.Dig(d, "fields", "connected_account_initiation", "required")),
			})
		}
	}
	w.slugs = slugs
	if len(slugs) > 1 {
		w.must("POST", "/toolkits/multi", nil, map[string]any{"slugs": slugs[:2]})
	}
	w.do("GET", "/toolkits/no-such-toolkit", nil, nil)

	tools := w.pages("/tools", nil, 4)
	for i, tl := range tools {
		if i%3 != 0 {
			continue
		}
		w.must("GET", "/tools/"+fmt.Sprint(testutil.Dig(tl, "slug")), nil, nil)
	}
	w.must("GET", "/tools", url.Values{"toolkit_slug": {"github"}}, nil)
	w.must("GET", "/tools", url.Values{"important": {"true"}, "scopes": {"repo"}}, nil)
	w.reject("a non-boolean important", "GET", "/tools", url.Values{"important": {"yes"}}, nil)
	w.must("GET", "/tools/enum", nil, nil)
	w.do("GET", "/tools/NO_SUCH_TOOL", nil, nil)

	types := w.pages("/triggers_types", nil, 3)
	for _, tt := range types {
		w.must("GET", "/triggers_types/"+fmt.Sprint(testutil.Dig(tt, "slug")), nil, nil)
	}
	w.must("GET", "/triggers_types/list/enum", nil, nil)
	return schemes
}

// walkAuthConfigs creates an auth config for every scheme (custom, and
// service-managed where offered), reads, lists, updates and toggles them.
// It returns one custom auth config per scheme.
func (w *walker) walkAuthConfigs(schemes []scheme) []configured {
	w.t.Helper()
	var out []configured
	for _, sc := range schemes {
		body := map[string]any{
			"toolkit": map[string]any{"slug": sc.toolkit},
			"auth_config": map[string]any{
				"type": "use_custom_auth", "authScheme": sc.mode, "name": "walk " + sc.toolkit + " " + sc.mode,
				"credentials": dummyFields(sc.creation),
			},
		}
		if sc.mode == "API_KEY" && len(sc.initReq) > 0 {
			body["auth_config"].(map[string]any)["shared_credentials"] = dummyFields(sc.initReq[:1])
		}
		r := w.must("POST", "/auth_configs", nil, body)
		id := r.str("auth_config", "id")
		out = append(out, configured{sc, id})
		w.must("GET", "/auth_configs/"+id, nil, nil)
		if sc.managed {
			r := w.must("POST", "/auth_configs", nil, map[string]any{
				"toolkit":     map[string]any{"slug": sc.toolkit},
				"auth_config": map[string]any{"type": "use_composio_managed_auth", "authScheme": sc.mode},
			})
			mid := r.str("auth_config", "id")
			w.must("PATCH", "/auth_configs/"+mid, nil, map[string]any{"type": "default", "name": "walk managed " + sc.toolkit})
			w.must("GET", "/auth_configs/"+mid, nil, nil)
		}
	}
	w.pages("/auth_configs", nil, 4)
	w.pages("/auth_configs", url.Values{"toolkit_slug": {"github"}, "show_disabled": {"true"}}, 2)
	w.must("GET", "/auth_configs", url.Values{"limit": {"200"}}, nil) // the service's page since 2026-09-21
	w.reject("an auth config page of 201", "GET", "/auth_configs", url.Values{"limit": {"201"}}, nil)

	// Updates, status toggles and the errors around them.
	var custom string
	for _, c := range out {
		if c.mode == "OAUTH2" {
			custom = c.id
			break
		}
	}
	w.must("PATCH", "/auth_configs/"+custom, nil, map[string]any{
		"type": "custom", "name": "walk renamed",
		"credentials":        map[string]any{"client_id": "walk-id-2", "client_secret": "walk-secret-2"},
		"tool_access_config": map[string]any{"tools_available_for_execution": []string{}},
	})
	w.must("PATCH", "/auth_configs/"+custom+"/DISABLED", nil, nil)
	w.must("GET", "/auth_configs/"+custom, nil, nil)
	w.must("PATCH", "/auth_configs/"+custom+"/ENABLED", nil, nil)
	w.reject("a lower-case status", "PATCH", "/auth_configs/"+custom+"/enabled", nil, nil)
	w.reject("an unknown status", "PATCH", "/auth_configs/"+custom+"/PAUSED", nil, nil)
	w.reject("an update without type", "PATCH", "/auth_configs/"+custom, nil, map[string]any{"name": "x"})
	w.reject("an unknown toolkit", "POST", "/auth_configs", nil, map[string]any{"toolkit": map[string]any{"slug": "no-such-toolkit"}})
	w.do("GET", "/auth_configs/ac_missing", nil, nil)
	return out
}
