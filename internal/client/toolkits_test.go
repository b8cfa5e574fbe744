package client

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

const toolkitJSON = `{"slug":"linear","name":"Linear","enabled":true,"is_local_toolkit":false,"composio_managed_auth_schemes":["OAUTH2"],
"auth_config_details":[{"mode":"OAUTH2","name":"Linear OAuth","fields":{"auth_config_creation":{"required":[{"name":"client_id","displayName":"Client ID","type":"string","description":"id","required":true,"default":null},{"name":"client_secret","displayName":"Client secret","type":"string","description":"s","required":true,"is_secret":true}],"optional":[{"name":"scopes","displayName":"Scopes","type":"string","description":"","required":false,"default":"read"}]},"connected_account_initiation":{"required":[],"optional":[]}}},
{"mode":"API_KEY","name":"Key","fields":{"auth_config_creation":{"required":[],"optional":[{"name":"port","type":"number","default":443}]},"connected_account_initiation":{"required":[{"name":"api_key","displayName":"API Key","type":"string","required":true,"is_secret":true}],"optional":[]}}}],
"meta":{"description":"Issues","logo":"https://logo","version":"20251015_00","categories":[{"name":"Productivity","slug":"productivity"}],"available_versions":["20250901_00","20251015_00"],"tools_count":12,"triggers_count":1},
"deprecated":{"toolkitId":"x"}}`

func TestToolkitOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name:   "get without version",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetToolkit(ctx, "linear", "") },
			reply:  toolkitJSON,
			method: "GET", path: "/api/v3.1/toolkits/linear",
			checkResp: func(t *testing.T, got any) {
				tk := got.(*Toolkit)
				if tk.Slug != "linear" || !tk.Enabled || len(tk.AuthConfigDetails) != 2 || tk.Meta.ToolsCount != 12 || tk.Meta.Version != "20251015_00" {
					t.Errorf("%+v", tk)
				}
				if !reflect.DeepEqual(tk.Meta.Categories, []Category{{ID: "productivity", Slug: "productivity", Name: "Productivity"}}) {
					t.Errorf("categories %+v", tk.Meta.Categories)
				}
				d, ok := tk.AuthDetail("oauth2")
				if !ok || d.Name != "Linear OAuth" {
					t.Fatalf("AuthDetail: %v %v", d, ok)
				}
				f := d.Fields.AuthConfigCreation
				if f.Required[0].DisplayName != "Client ID" || f.Required[0].Default != nil || !f.Required[1].IsSecret || *f.Optional[0].Default != "read" {
					t.Errorf("fields %+v", f)
				}
				k, _ := tk.AuthDetail("API_KEY")
				if *k.Fields.AuthConfigCreation.Optional[0].Default != "443" || k.Fields.ConnectedAccountInitiation.Required[0].Name != "api_key" {
					t.Errorf("api key fields %+v", k.Fields)
				}
				if _, ok := tk.AuthDetail("BASIC"); ok {
					t.Error("BASIC should be absent")
				}
				if !tk.SupportsManagedAuth("OAUTH2") || tk.SupportsManagedAuth("API_KEY") || !tk.SupportsManagedAuth("") {
					t.Error("SupportsManagedAuth")
				}
			},
		},
		{
			name:   "get with version",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetToolkit(ctx, "github", "20250901_00") },
			reply:  `{"slug":"github","meta":{}}`,
			method: "GET", path: "/api/v3.1/toolkits/github",
			query: map[string]string{"version": "20250901_00"},
		},
		{
			name: "list",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListToolkits(ctx, ToolkitListParams{Category: "finance", ManagedBy: "composio", SortBy: "alphabetically", Limit: 100})
			},
			reply:  `{"items":[{"slug":"stripe","name":"Stripe","auth_schemes":["API_KEY"],"is_local_toolkit":false,"meta":{"categories":[{"id":"finance","name":"Finance"}],"tools_count":3}}],"next_cursor":null,"total_pages":1}`,
			method: "GET", path: "/api/v3.1/toolkits",
			query: map[string]string{"category": "finance", "managed_by": "composio", "sort_by": "alphabetically", "limit": "100"},
			checkResp: func(t *testing.T, got any) {
				l := got.([]ToolkitSummary)
				if len(l) != 1 || l[0].Slug != "stripe" || l[0].AuthSchemes[0] != "API_KEY" || l[0].Meta.Categories[0].Slug != "finance" {
					t.Errorf("%+v", l)
				}
			},
		},
		{
			name:   "categories page",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListToolkitCategories(ctx) },
			reply:  `{"items":[{"id":"developer-tools","name":"Developer Tools"},{"id":"finance","name":"Finance"}],"next_cursor":null,"total_pages":1}`,
			method: "GET", path: "/api/v3.1/toolkits/categories",
			checkResp: func(t *testing.T, got any) {
				want := []Category{{ID: "developer-tools", Slug: "developer-tools", Name: "Developer Tools"}, {ID: "finance", Slug: "finance", Name: "Finance"}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%+v", got)
				}
			},
		},
		{
			name:   "categories bare array",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListToolkitCategories(ctx) },
			reply:  `[{"slug":"crm","name":"CRM"}]`,
			method: "GET", path: "/api/v3.1/toolkits/categories",
			checkResp: func(t *testing.T, got any) {
				if !reflect.DeepEqual(got, []Category{{ID: "crm", Slug: "crm", Name: "CRM"}}) {
					t.Errorf("%+v", got)
				}
			},
		},
	})
}

func TestToolkitCategoriesFollowCursor(t *testing.T) {
	h := func(cursor string) string {
		if cursor == "" {
			return `{"items":[{"id":"a","name":"A"}],"next_cursor":"p2"}`
		}
		return `{"items":[{"id":"b","name":"B"}],"next_cursor":null}`
	}
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(h(r.URL.Query().Get("cursor"))))
	})
	got, err := c.ListToolkitCategories(context.Background())
	if err != nil || len(got) != 2 || got[1].Slug != "b" || rec.count() != 2 {
		t.Errorf("got %+v, %v after %d requests", got, err, rec.count())
	}
}

// is_secret is optional (absent from the newest document): a field that
// carries it is taken at its word, one without it is judged by its name.
func TestFieldSecretWithAndWithoutIsSecret(t *testing.T) {
	for _, tc := range []struct {
		json             string
		secret, reported bool
	}{
		{`{"name":"api_key","is_secret":false}`, false, true},
		{`{"name":"subdomain","is_secret":true}`, true, true},
		{`{"name":"api_key"}`, true, false},
		{`{"name":"client_secret"}`, true, false},
		{`{"name":"devKey"}`, true, false},
		{`{"name":"sessionId"}`, true, false},
		{`{"name":"password"}`, true, false},
		{`{"name":"subdomain"}`, false, false},
		{`{"name":"client_id"}`, false, false},
		{`{"name":"scopes","default":"read"}`, false, false},
	} {
		var f Field
		if err := json.Unmarshal([]byte(tc.json), &f); err != nil {
			t.Fatal(err)
		}
		if f.IsSecret != tc.secret || f.SecretReported != tc.reported {
			t.Errorf("%s: IsSecret %v SecretReported %v, want %v %v", tc.json, f.IsSecret, f.SecretReported, tc.secret, tc.reported)
		}
	}
}
