package client

import (
	"context"
	"reflect"
	"testing"
)

const triggerInstanceJSON = `{"id":"ti_1","uuid":"uu-1","connected_account_id":"ca_1","connected_account_uuid":"x","user_id":"u1","trigger_name":"GITHUB_COMMIT_EVENT","trigger_config":{"owner":"o","repo":"r"},"state":{},"updated_at":"t","disabled_at":null,"version":"20251015_00"}`

func TestTriggerOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "list active with filters",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListActiveTriggers(ctx, TriggerInstanceListParams{AuthConfigIDs: []string{"ac_1"}, ConnectedAccountIDs: []string{"ca_1", "ca_2"}, TriggerIDs: []string{"ti_1"}, TriggerNames: []string{"A", "B"}, UserIDs: []string{"u1"}, ShowDisabled: true, Limit: 25})
			},
			reply:  `{"items":[` + triggerInstanceJSON + `],"next_cursor":null}`,
			method: "GET", path: "/api/v3.1/trigger_instances/active",
			query: map[string]string{"auth_config_ids": "ac_1", "connected_account_ids": "ca_1,ca_2", "trigger_ids": "ti_1", "trigger_names": "A,B", "user_ids": "u1", "show_disabled": "true", "limit": "25"},
			checkResp: func(t *testing.T, got any) {
				want := TriggerInstance{ID: "ti_1", UUID: "uu-1", ConnectedAccountID: "ca_1", UserID: "u1", TriggerName: "GITHUB_COMMIT_EVENT", UpdatedAt: "t", Version: "20251015_00", TriggerConfig: map[string]any{"owner": "o", "repo": "r"}}
				l := got.([]TriggerInstance)
				if len(l) != 1 || !reflect.DeepEqual(l[0], want) || l[0].IsDisabled() {
					t.Errorf("got  %+v\nwant %+v", l, want)
				}
			},
		},
		{
			name:   "get instance is one filtered GET",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetTriggerInstance(ctx, "ti_1") },
			reply:  `{"items":[` + triggerInstanceJSON + `],"next_cursor":null}`,
			method: "GET", path: "/api/v3.1/trigger_instances/active",
			query: map[string]string{"trigger_ids": "ti_1", "show_disabled": "true"},
			checkResp: func(t *testing.T, got any) {
				if got.(*TriggerInstance).ID != "ti_1" {
					t.Errorf("%+v", got)
				}
			},
		},
		{
			name: "upsert default latest",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1", TriggerConfig: map[string]any{"owner": "o"}})
			},
			reply:  `{"trigger_id":"ti_9","deprecated":{"uuid":"x"}}`,
			method: "POST", path: "/api/v3.1/trigger_instances/GITHUB_COMMIT_EVENT/upsert",
			body: `{"connected_account_id":"ca_1","trigger_config":{"owner":"o"},"toolkit_versions":"latest"}`,
			checkResp: func(t *testing.T, got any) {
				if got.(string) != "ti_9" {
					t.Errorf("%v", got)
				}
			},
		},
		{
			name: "upsert global version and user id",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", UpsertTriggerRequest{UserID: "u1", ToolkitVersions: &ToolkitVersions{Global: "20250901_00"}})
			},
			reply:  `{"trigger_id":"ti_8"}`,
			method: "POST", path: "/api/v3.1/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert",
			body: `{"user_id":"u1","trigger_config":{},"toolkit_versions":"20250901_00"}`,
		},
		{
			name: "upsert per-toolkit versions object",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1", TriggerConfig: map[string]any{}, ToolkitVersions: &ToolkitVersions{Global: "latest", PerToolkit: map[string]string{"github": "20250901_00"}}})
			},
			reply:  `{"trigger_id":"ti_7"}`,
			method: "POST", path: "/api/v3.1/trigger_instances/GITHUB_COMMIT_EVENT/upsert",
			body: `{"connected_account_id":"ca_1","trigger_config":{},"toolkit_versions":{"github":"20250901_00"}}`,
		},
		{
			name: "upsert sets egress_url",
			call: func(ctx context.Context, c *Client) (any, error) {
				u := "https://hooks.example.com/ti"
				return c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1", EgressURL: &u})
			},
			reply:  `{"trigger_id":"ti_6"}`,
			method: "POST", path: "/api/v3.1/trigger_instances/GITHUB_COMMIT_EVENT/upsert",
			body: `{"connected_account_id":"ca_1","trigger_config":{},"toolkit_versions":"latest","egress_url":"https://hooks.example.com/ti"}`,
		},
		{
			name: "upsert removes egress_url with null",
			call: func(ctx context.Context, c *Client) (any, error) {
				none := ""
				return c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1", EgressURL: &none})
			},
			reply:  `{"trigger_id":"ti_6"}`,
			method: "POST", path: "/api/v3.1/trigger_instances/GITHUB_COMMIT_EVENT/upsert",
			body: `{"connected_account_id":"ca_1","trigger_config":{},"toolkit_versions":"latest","egress_url":null}`,
		},
		{
			name:   "enable",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.EnableTrigger(ctx, "ti_1") },
			reply:  `{"status":"success"}`,
			method: "PATCH", path: "/api/v3.1/trigger_instances/manage/ti_1", body: `{"status":"enable"}`,
		},
		{
			name:   "disable",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DisableTrigger(ctx, "ti_1") },
			method: "PATCH", path: "/api/v3.1/trigger_instances/manage/ti_1", body: `{"status":"disable"}`,
		},
		{
			name:   "delete",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteTrigger(ctx, "ti_1") },
			reply:  `{"trigger_id":"ti_1"}`,
			method: "DELETE", path: "/api/v3.1/trigger_instances/manage/ti_1",
		},
		{
			name: "list types with toolkit filter and versions",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTriggerTypes(ctx, TriggerTypeListParams{ToolkitSlugs: []string{"github", "slack"}, Versions: &ToolkitVersions{PerToolkit: map[string]string{"github": "20250901_00"}}, Limit: 10})
			},
			reply:  `{"items":[{"slug":"GITHUB_COMMIT_EVENT","name":"Commit","type":"webhook","toolkit":{"slug":"github","name":"GitHub"},"config":{"type":"object"},"payload":{},"version":"20250901_00"}],"next_cursor":null}`,
			method: "GET", path: "/api/v3.1/triggers_types",
			query: map[string]string{"toolkit_slugs": "github,slack", "toolkit_versions[github]": "20250901_00", "limit": "10"},
			checkResp: func(t *testing.T, got any) {
				l := got.([]TriggerType)
				if len(l) != 1 || l[0].Toolkit.Name != "GitHub" || l[0].Config["type"] != "object" {
					t.Errorf("%+v", l)
				}
			},
		},
		{
			name: "list types default latest",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTriggerTypes(ctx, TriggerTypeListParams{})
			},
			reply:  `{"items":[]}`,
			method: "GET", path: "/api/v3.1/triggers_types",
			query: map[string]string{"toolkit_versions": "latest"},
		},
		{
			name: "get type with map and global fallback",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetTriggerType(ctx, "GITHUB_COMMIT_EVENT", &ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"slack": "20251015_00"}})
			},
			reply:  `{"slug":"GITHUB_COMMIT_EVENT","name":"Commit","description":"d","instructions":"i","type":"webhook","toolkit":{"slug":"github","name":"GitHub","logo":"l"},"config":{"properties":{"owner":{"type":"string"}}},"payload":{"type":"object"},"version":"20250901_00"}`,
			method: "GET", path: "/api/v3.1/triggers_types/GITHUB_COMMIT_EVENT",
			query: map[string]string{"toolkit_versions[github]": "20250901_00", "toolkit_versions[slack]": "20251015_00"},
			checkResp: func(t *testing.T, got any) {
				tt := got.(*TriggerType)
				if tt.Slug != "GITHUB_COMMIT_EVENT" || tt.Instructions != "i" || tt.Version != "20250901_00" || tt.Toolkit.Logo != "l" || tt.Payload["type"] != "object" {
					t.Errorf("%+v", tt)
				}
			},
		},
		{
			name: "get type global string",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetTriggerType(ctx, "X_Y", &ToolkitVersions{Global: "20250901_00"})
			},
			method: "GET", path: "/api/v3.1/triggers_types/X_Y",
			query: map[string]string{"toolkit_versions": "20250901_00"},
		},
	})
}

func TestGetTriggerInstanceNotFound(t *testing.T) {
	c, rec := newTestClient(t, replyJSON(200, `{"items":[],"next_cursor":null}`))
	_, err := c.GetTriggerInstance(context.Background(), "ti_gone")
	if !IsNotFound(err) || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
	// A server ignoring the filter must not make another instance match.
	c, _ = newTestClient(t, replyJSON(200, `{"items":[`+triggerInstanceJSON+`]}`))
	if _, err := c.GetTriggerInstance(context.Background(), "ti_other"); !IsNotFound(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestTriggerInstanceCamelCaseFallback(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(200, `{"items":[{"id":"ti_2","connectedAccountId":"ca_9","triggerName":"SLACK_X","triggerConfig":{"a":1},"updatedAt":"t2","disabledAt":"2026-01-01"}]}`))
	ti, err := c.GetTriggerInstance(context.Background(), "ti_2")
	if err != nil {
		t.Fatal(err)
	}
	if ti.ConnectedAccountID != "ca_9" || ti.TriggerName != "SLACK_X" || ti.TriggerConfig["a"] == nil || ti.UpdatedAt != "t2" || !ti.IsDisabled() {
		t.Errorf("%+v", ti)
	}
}

func TestUpsertTriggerWithoutID(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(200, `{}`))
	if _, err := c.UpsertTrigger(context.Background(), "A_B", UpsertTriggerRequest{ConnectedAccountID: "ca"}); err == nil {
		t.Fatal("want error for a response without trigger_id")
	}
}

func TestToolkitPrefix(t *testing.T) {
	for slug, want := range map[string]string{
		"GITHUB_COMMIT_EVENT": "github", " SLACK_RECEIVE_MESSAGE": "slack", "NOUNDERSCORE": "nounderscore", "": "",
	} {
		if got := ToolkitPrefix(slug); got != want {
			t.Errorf("ToolkitPrefix(%q) = %q, want %q", slug, got, want)
		}
	}
}
