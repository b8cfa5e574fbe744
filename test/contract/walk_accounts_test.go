package contract

import (
	"fmt"
	"net/url"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

func isOAuth(mode string) bool {
	return mode == "OAUTH2" || mode == "OAUTH1" || mode == "DCR_OAUTH" || mode == "CIMD_OAUTH"
}

// connect creates a connected account on authConfig for sc (with the alias,
// when given); OAuth schemes start INITIATED, the others ACTIVE.
func (w *walker) connect(sc scheme, authConfig, user string, alias ...string) string {
	w.t.Helper()
	val := dummyFields(sc.initReq)
	if isOAuth(sc.mode) {
		val["status"] = "INITIALIZING"
	} else {
		val["status"] = "ACTIVE"
	}
	if sc.mode == "S2S_OAUTH2" { // the contract's ACTIVE S2S state carries the token
		val["access_token"] = "walk-access_token"
	}
	conn := map[string]any{
		"user_id": user, "callback_url": "https://example.com/cb",
		"state": map[string]any{"authScheme": sc.mode, "val": val},
	}
	if len(alias) > 0 {
		conn["alias"] = alias[0]
	}
	r := w.must("POST", "/connected_accounts", nil, map[string]any{"auth_config": map[string]any{"id": authConfig}, "connection": conn})
	return r.str("id")
}

// walkAccounts drives every scheme's accounts through the statuses the API
// and the control routes reach: INITIATED, ACTIVE, FAILED, EXPIRED, disabled
// and enabled again, INACTIVE (auth config deleted).
func (w *walker) walkAccounts(configs []configured) (active map[string]string) {
	w.t.Helper()
	active = map[string]string{} // toolkit -> an ACTIVE account
	for _, c := range configs {
		sc, ac := c.scheme, c.id
		a := w.connect(sc, ac, "walk-user")
		w.must("GET", "/connected_accounts/"+a, nil, nil)
		w.must("POST", "/_emulator/connected_accounts/"+a+"/complete", nil, nil)
		w.must("GET", "/connected_accounts/"+a, nil, nil)
		if _, ok := active[sc.toolkit]; !ok {
			active[sc.toolkit] = a
		}

		failed := w.connect(sc, ac, "walk-user-2")
		w.must("POST", "/_emulator/connected_accounts/"+failed+"/fail", nil, map[string]any{"reason": "walk"})
		w.must("GET", "/connected_accounts/"+failed, nil, nil)

		expired := w.connect(sc, ac, "walk-user-2")
		w.must("POST", "/_emulator/connected_accounts/"+expired+"/complete", nil, nil)
		w.must("POST", "/_emulator/connected_accounts/"+expired+"/expire", nil, nil)
		w.must("GET", "/connected_accounts/"+expired, nil, nil)
		w.must("POST", "/connected_accounts/"+expired+"/refresh", nil, map[string]any{})
		w.must("GET", "/connected_accounts/"+expired, nil, nil)

		w.must("PATCH", "/connected_accounts/"+failed+"/status", nil, map[string]any{"enabled": false})
		w.must("GET", "/connected_accounts/"+failed, nil, nil)
		w.must("PATCH", "/connected_accounts/"+failed+"/status", nil, map[string]any{"enabled": true})

		// Aliases, unique per user and toolkit (a toolkit's schemes share it).
		alias := "walk " + sc.mode
		w.must("PATCH", "/connected_accounts/"+a, nil, map[string]any{"alias": alias})
		w.must("GET", "/connected_accounts/"+a, nil, nil)
		if r := w.do("PATCH", "/connected_accounts/"+failed, nil, map[string]any{"alias": alias}); r.status != 200 {
			w.t.Errorf("walk: another user's account cannot take alias %q: %d %v", alias, r.status, r.body)
		}
		second := w.connect(sc, ac, "walk-user")
		if r := w.do("PATCH", "/connected_accounts/"+second, nil, map[string]any{"alias": alias}); r.status != 409 {
			w.t.Errorf("walk: a duplicate alias of walk-user on %s answered %d, want 409: %v", sc.toolkit, r.status, r.body)
		}
		w.must("PATCH", "/connected_accounts/"+failed, nil, map[string]any{"alias": ""})
		w.must("GET", "/connected_accounts/"+failed, nil, nil)

		// Revocation: an ACTIVE account (twice), and the refusals.
		rv := w.connect(sc, ac, "walk-user-3")
		w.must("POST", "/_emulator/connected_accounts/"+rv+"/complete", nil, nil)
		switch r := w.do("POST", "/connected_accounts/"+rv+"/revoke", nil, nil); {
		case sc.toolkit == "mailchimp" && r.status != 400, sc.toolkit != "mailchimp" && r.status != 200:
			w.t.Errorf("walk: revoking an ACTIVE %s account answered %d: %v", sc.toolkit, r.status, r.body)
		case r.status == 200:
			w.must("POST", "/connected_accounts/"+rv+"/revoke", nil, nil)
			w.must("GET", "/connected_accounts/"+rv, nil, nil)
		}
		if r := w.do("POST", "/connected_accounts/"+failed+"/revoke", nil, nil); r.status != 409 && sc.toolkit != "mailchimp" {
			w.t.Errorf("walk: revoking a FAILED account answered %d, want 409: %v", r.status, r.body)
		}
	}
	w.do("POST", "/connected_accounts/ca_missing/revoke", nil, nil)
	w.connect(configs[0].scheme, configs[0].id, "walk-alias-user", "walk created")
	w.pages("/connected_accounts", nil, 5)
	w.pages("/connected_accounts", url.Values{"statuses": {"ACTIVE", "EXPIRED"}, "order_by": {"updated_at"}}, 3)
	w.pages("/connected_accounts", url.Values{"toolkit_slugs": {"github"}, "user_ids": {"walk-user"}, "order_direction": {"asc"}}, 2)
	w.must("GET", "/connected_accounts", url.Values{"account_type": {"SHARED"}}, nil)
	w.reject("an unknown status filter", "GET", "/connected_accounts", url.Values{"statuses": {"SLEEPING"}}, nil)
	w.reject("an unknown order_by", "GET", "/connected_accounts", url.Values{"order_by": {"name"}}, nil)
	w.reject("an unknown account_type", "GET", "/connected_accounts", url.Values{"account_type": {"PUBLIC"}}, nil)
	w.must("GET", "/connected_accounts", url.Values{"account_type": {"ALL"}}, nil)

	// A hosted link, then INACTIVE accounts: delete one auth config per scheme
	// except the ones the active accounts use.
	w.must("POST", "/connected_accounts/link", nil, map[string]any{
		"auth_config_id": configs[0].id, "user_id": "walk-link-user", "callback_url": "https://example.com/cb", "alias": "walk link",
	})
	w.reject("a javascript: callback_url", "POST", "/connected_accounts/link", nil, map[string]any{
		"auth_config_id": configs[0].id, "user_id": "walk-link-user", "callback_url": "javascript:alert(1)",
	})
	w.reject("a plain http callback_url to another host", "POST", "/connected_accounts", nil, map[string]any{
		"auth_config": map[string]any{"id": configs[0].id},
		"connection":  map[string]any{"user_id": "walk-link-user", "callback_url": "http://example.com/cb"},
	})
	for i, c := range configs {
		sc := c.scheme
		r := w.must("POST", "/auth_configs", nil, map[string]any{
			"toolkit": map[string]any{"slug": sc.toolkit},
			"auth_config": map[string]any{
				"type": "use_custom_auth", "authScheme": sc.mode, "credentials": dummyFields(sc.creation),
			},
		})
		ac := r.str("auth_config", "id")
		a := w.connect(sc, ac, "walk-inactive")
		w.must("POST", "/_emulator/connected_accounts/"+a+"/complete", nil, nil)
		pending := w.connect(sc, ac, "walk-inactive") // INITIATED for OAuth schemes
		revoke := url.Values{"revoke_on_delete": {fmt.Sprint(i%2 == 0)}}
		w.must("DELETE", "/auth_configs/"+ac, revoke, nil)
		w.must("GET", "/connected_accounts/"+a, nil, nil)
		w.must("GET", "/connected_accounts/"+pending, nil, nil)
		w.must("DELETE", "/connected_accounts/"+a, revoke, nil)
	}
	w.do("GET", "/connected_accounts/ca_missing", nil, nil)
	for _, c := range configs {
		if c.mode != "API_KEY" {
			continue
		}
		state := func(val map[string]any) map[string]any {
			return map[string]any{"auth_config": map[string]any{"id": c.id},
				"connection": map[string]any{"user_id": "walk-bad", "state": map[string]any{"authScheme": "API_KEY", "val": val}}}
		}
		w.reject("a connection state without val.status", "POST", "/connected_accounts", nil, state(dummyFields(c.initReq)))
		bad := dummyFields(c.initReq)
		bad["status"] = "EXPIRED"
		w.reject("an API_KEY connection state EXPIRED", "POST", "/connected_accounts", nil, state(bad))
		// the credential PATCH's val is closed: the create's status is not one of its keys
		good := dummyFields(c.initReq)
		good["status"] = "ACTIVE"
		id := w.must("POST", "/connected_accounts", nil, state(good)).str("id")
		w.reject("a credential PATCH with val.status", "PATCH", "/connected_accounts/"+id, nil, map[string]any{
			"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE"}}}})
		break
	}
	for _, c := range configs {
		if c.mode != "S2S_OAUTH2" {
			continue
		}
		val := dummyFields(c.initReq)
		val["status"] = "ACTIVE"
		w.reject("an ACTIVE S2S_OAUTH2 state without access_token", "POST", "/connected_accounts", nil, map[string]any{
			"auth_config": map[string]any{"id": c.id},
			"connection":  map[string]any{"user_id": "walk-bad", "state": map[string]any{"authScheme": "S2S_OAUTH2", "val": val}}})
		break
	}
	w.reject("an account without auth config", "POST", "/connected_accounts", nil, map[string]any{
		"connection": map[string]any{"user_id": "x"},
	})
	return active
}

// walkTriggers upserts, lists, disables, enables and deletes a trigger
// instance for the first trigger type whose toolkit has an ACTIVE account.
func (w *walker) walkTriggers(active map[string]string) {
	w.t.Helper()
	for _, tt := range w.pages("/triggers_types", nil, 20) {
		slug, _ := testutil.Dig(tt, "slug").(string)
		tk, _ := testutil.Dig(tt, "toolkit", "slug").(string)
		acct, ok := active[tk]
		if !ok {
			continue
		}
		r := w.do("POST", "/trigger_instances/"+slug+"/upsert", nil, map[string]any{
			"connected_account_id": acct, "trigger_config": configFor(testutil.Dig(tt, "config")),
		})
		if r.status >= 300 {
			continue
		}
		id := r.str("trigger_id")
		w.pages("/trigger_instances/active", nil, 2)
		w.must("GET", "/trigger_instances/active", url.Values{"trigger_ids": {id}, "show_disabled": {"true"}}, nil)
		w.must("PATCH", "/trigger_instances/manage/"+id, nil, map[string]any{"status": "disable"})
		w.must("PATCH", "/trigger_instances/manage/"+id, nil, map[string]any{"status": "enable"})
		w.reject("an unknown trigger status", "PATCH", "/trigger_instances/manage/"+id, nil, map[string]any{"status": "paused"})
		w.must("DELETE", "/trigger_instances/manage/"+id, nil, nil)
		return
	}
	w.t.Error("walk: no trigger type could be upserted")
}

// walkTools executes a tool and a proxy request with an ACTIVE account.
func (w *walker) walkTools(active map[string]string) {
	w.t.Helper()
	acct := active["github"]
	for _, tl := range w.pages("/tools", url.Values{"toolkit_slug": {"github"}}, 20) {
		slug, _ := testutil.Dig(tl, "slug").(string)
		w.do("POST", "/tools/execute/"+slug, nil, map[string]any{"connected_account_id": acct, "arguments": map[string]any{}})
		break
	}
	w.do("POST", "/tools/execute/proxy", nil, map[string]any{
		"connected_account_id": acct, "endpoint": "/user", "method": "GET",
	})
}

// walkSessions creates tool-router sessions with several configs and reads them.
func (w *walker) walkSessions() {
	w.t.Helper()
	var toolSlug string
	for _, tl := range w.pages("/tools", url.Values{"toolkit_slug": {"github"}}, 20) {
		toolSlug, _ = testutil.Dig(tl, "slug").(string)
		break
	}
	bodies := []map[string]any{
		{"user_id": "walk-session"},
		{
			"user_id": "walk-session", "toolkits": map[string]any{"enable": []string{"github", "slack"}},
			"preload": map[string]any{"tools": []string{toolSlug}},
			"tags":    []string{"readOnlyHint"}, "workbench": map[string]any{"enable": true, "sandbox_size": "medium"},
			"manage_connections": map[string]any{"enable": true, "callback_url": "https://example.com/cb"},
		},
		{"user_id": "walk-session", "toolkits": map[string]any{"disable": []string{"gmail"}}, "tags": map[string]any{"disable": []string{"destructiveHint"}}},
		{
			"user_id": "walk-session",
			"tools": map[string]any{
				"github": map[string]any{"enable": []string{toolSlug}},
				"slack":  map[string]any{"tags": map[string]any{"enable": []string{"readOnlyHint"}}},
				"gmail":  map[string]any{"disable": []string{"GMAIL_SEND_EMAIL"}},
			},
			"experimental": map[string]any{
				"assistive_prompt_config": map[string]any{"user_timezone": "Europe/Paris"},
				"custom_tools": []any{map[string]any{
					"slug": "WALK_TOOL", "name": "Walk tool", "description": "A custom tool", "input_schema": map[string]any{"type": "object"},
				}},
				"custom_toolkits": []any{map[string]any{
					"slug": "walk_kit", "name": "Walk kit", "description": "A custom toolkit",
					"tools": []any{map[string]any{"slug": "WALK_KIT_TOOL", "name": "Kit tool", "description": "d", "input_schema": map[string]any{"type": "object"}}},
				}},
			},
		},
		{"user_id": "walk-session", "toolkits": map[string]any{"enable": w.toolkitSlugs()}, "preload": map[string]any{"tools": "all"}},
	}
	for _, b := range bodies {
		r := w.must("POST", "/tool_router/session", nil, b)
		id := r.str("session_id")
		w.must("GET", "/tool_router/session/"+id, nil, nil)
		w.must("GET", "/tool_router/session/"+id+"/tools", nil, nil)
		w.pages("/tool_router/session/"+id+"/toolkits", nil, 2)
		w.do("POST", "/tool_router/session/"+id+"/link", nil, map[string]any{"toolkit": "github"})
		// What service_tool_router_session's updates send: changed members,
		// maps replaced, nullable blocks reset (not on a session preloading
		// "all", which needs its positive filter).
		if p, _ := b["preload"].(map[string]any); p["tools"] == "all" {
			w.reject("a PATCH removing the filter preload all needs", "PATCH", "/tool_router/session/"+id, nil,
				map[string]any{"toolkits": map[string]any{"disable": []string{}}})
			w.must("DELETE", "/tool_router/session/"+id, nil, nil)
			continue
		}
		w.must("PATCH", "/tool_router/session/"+id, nil, map[string]any{
			"toolkits": map[string]any{"disable": []string{"gmail"}}, "tags": map[string]any{"enable": []string{"readOnlyHint"}},
			"manage_connections": map[string]any{"enable": true, "enable_wait_for_connections": false, "enable_connection_removal": true},
			"workbench":          map[string]any{"enable": true, "enable_proxy_execution": true, "sandbox_size": "large"},
			"multi_account":      map[string]any{"enable": true, "max_accounts_per_toolkit": 3},
			"tools":              map[string]any{}, "auth_configs": map[string]any{},
		})
		w.must("PATCH", "/tool_router/session/"+id, nil, map[string]any{
			"toolkits": map[string]any{"disable": []string{}}, "tags": map[string]any{},
			"connected_accounts": nil, "manage_connections": nil, "workbench": nil, "multi_account": nil,
		})
		w.pages("/tool_router/session/"+id+"/config_history", nil, 1)
		if toolSlug != "" {
			w.do("POST", "/tool_router/session/"+id+"/execute", nil, map[string]any{"tool_slug": toolSlug, "arguments": map[string]any{}})
		}
		w.must("DELETE", "/tool_router/session/"+id, nil, nil)
	}
	w.reject("an unknown tag", "POST", "/tool_router/session", nil, map[string]any{"user_id": "u", "tags": []string{"fastHint"}})
	w.reject("an unknown sandbox size", "POST", "/tool_router/session", nil, map[string]any{
		"user_id": "u", "workbench": map[string]any{"sandbox_size": "huge"},
	})
	w.reject("a session without user", "POST", "/tool_router/session", nil, map[string]any{})
	patched := w.must("POST", "/tool_router/session", nil, map[string]any{"user_id": "walk-session"}).str("session_id")
	w.reject("a PATCH of the user", "PATCH", "/tool_router/session/"+patched, nil, map[string]any{"user_id": "other"})
	w.reject("a PATCH with both toolkit forms", "PATCH", "/tool_router/session/"+patched, nil, map[string]any{
		"toolkits": map[string]any{"enable": []string{"github"}, "disable": []string{"gmail"}},
	})
	w.do("PATCH", "/tool_router/session/trs_missing", nil, map[string]any{})
	w.do("GET", "/tool_router/session/trs_missing", nil, nil)
}
