package emulator

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func props(r resp) map[string]any {
	p, _ := r.get("config", "properties").(map[string]any)
	return p
}

func TestTriggerUpsertValidation(t *testing.T) {
	e := newEnv(t, Options{})
	gh := e.createManagedAC("github")
	ca, _ := e.oauthAccount(gh, "u1", "")
	up := func(slug string, body map[string]any) resp {
		return e.do("POST", v+"/trigger_instances/"+slug+"/upsert", body)
	}
	cfg := map[string]any{"owner": "octo", "repo": "hello"}
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"connected_account_id": ca, "trigger_config": cfg}), 400, "not usable for triggers")
	e.must(200, "POST", "/_emulator/connected_accounts/"+ca+"/complete", nil)

	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"connected_account_id": ca, "trigger_config": map[string]any{"owner": "o"}}), 400, "trigger_config.repo is required")
	withBranch := map[string]any{"owner": "o", "repo": "r", "branch": "main"}
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"connected_account_id": ca, "trigger_config": withBranch,
		"toolkit_versions": map[string]any{"github": VersionOld}}), 400, "trigger_config.branch is not an allowed property (allowed: owner, repo)")
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"connected_account_id": ca, "trigger_config": map[string]any{"owner": 1, "repo": "r"}}), 400, "trigger_config.owner must be a string, got an integer")
	checkErr(t, up("GITHUB_PULL_REQUEST_EVENT", map[string]any{"connected_account_id": ca, "trigger_config": map[string]any{"owner": "o", "repo": "r", "action": "merged"}}), 400, "trigger_config.action must be one of")
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"connected_account_id": ca, "trigger_config": cfg, "toolkit_versions": "2025"}), 400, "invalid toolkit version")
	checkErr(t, up("NOPE", map[string]any{"connected_account_id": ca}), 404, "not found")
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"connected_account_id": "ca_missing", "trigger_config": cfg}), 404, "not found")
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"trigger_config": cfg}), 400, "connected_account_id or user_id is required")
	checkErr(t, up("SLACK_RECEIVE_MESSAGE", map[string]any{"connected_account_id": ca}), 400, "belongs to slack")

	r := e.must(200, "POST", v+"/trigger_instances/GITHUB_COMMIT_EVENT/upsert", map[string]any{"connected_account_id": ca, "trigger_config": withBranch, "toolkit_versions": "latest"})
	id := r.str("trigger_id")
	if !strings.HasPrefix(id, "ti_") {
		t.Fatal(r.raw)
	}
	// identical upsert returns the same instance; user_id resolves the account
	again := e.must(200, "POST", v+"/trigger_instances/GITHUB_COMMIT_EVENT/upsert", map[string]any{"user_id": "u1", "trigger_config": withBranch})
	if again.str("trigger_id") != id {
		t.Fatalf("upsert not idempotent: %s vs %s", again.str("trigger_id"), id)
	}
	old := e.must(200, "POST", v+"/trigger_instances/GITHUB_COMMIT_EVENT/upsert", map[string]any{"connected_account_id": ca, "trigger_config": cfg,
		"toolkit_versions": map[string]any{"github": VersionOld}})
	checkErr(t, up("GITHUB_COMMIT_EVENT", map[string]any{"user_id": "nobody", "trigger_config": cfg}), 400, "no ACTIVE connected account")

	stripe := e.createCustomAC("stripe", "API_KEY", nil)
	sa := e.apiKeyAccount(stripe, "u2")
	checkErr(t, up("STRIPE_CHARGE_SUCCEEDED_TRIGGER", map[string]any{"connected_account_id": sa, "trigger_config": map[string]any{"min_amount": -5}}), 400, "trigger_config.min_amount must be at least 0, got -5")
	checkErr(t, up("STRIPE_CHARGE_SUCCEEDED_TRIGGER", map[string]any{"connected_account_id": sa, "trigger_config": map[string]any{"min_amount": 1.5}}), 400, "trigger_config.min_amount must be an integer, got a number")
	e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": sa, "trigger_config": map[string]any{"min_amount": 100}})

	hs := e.createCustomAC("hubspot", "API_KEY", nil)
	ha := e.apiKeyAccount(hs, "u3")
	checkErr(t, up("HUBSPOT_CONTACT_CREATED_TRIGGER", map[string]any{"connected_account_id": ha, "trigger_config": map[string]any{"properties": []any{"email", 3}}}), 400, "trigger_config.properties[1] must be a string, got an integer")

	list := e.must(200, "GET", v+"/trigger_instances/active?trigger_ids="+id+"&show_disabled=true", nil)
	items := list.items()
	if len(items) != 1 || items[0]["trigger_name"] != "GITHUB_COMMIT_EVENT" || items[0]["connected_account_id"] != ca ||
		items[0]["version"] != VersionLatest || items[0]["user_id"] != "u1" || items[0]["disabled_at"] != nil ||
		items[0]["triggerName"] != "GITHUB_COMMIT_EVENT" || items[0]["trigger_config"].(map[string]any)["branch"] != "main" {
		t.Fatalf("instance: %s", list.raw)
	}
	if it := e.must(200, "GET", v+"/trigger_instances/active?trigger_ids="+old.str("trigger_id"), nil).items(); it[0]["version"] != VersionOld {
		t.Fatalf("old version instance: %v", it[0])
	}
}

func TestTriggerManageAndList(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	ca2 := e.apiKeyAccount(ac, "u2")
	t1 := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca}).str("trigger_id")
	t2 := e.must(200, "POST", v+"/trigger_instances/STRIPE_PAYMENT_FAILED_TRIGGER/upsert", map[string]any{"connected_account_id": ca2}).str("trigger_id")
	manage := v + "/trigger_instances/manage/"
	e.mustErr(409, "already enabled", "PATCH", manage+t1, map[string]any{"status": "enable"})
	if r := e.must(200, "PATCH", manage+t1, map[string]any{"status": "disable"}); r.str("status") != "success" {
		t.Fatal(r.raw)
	}
	e.mustErr(409, "already disabled", "PATCH", manage+t1, map[string]any{"status": "disable"})
	e.mustErr(400, "status must be", "PATCH", manage+t1, map[string]any{"status": "pause"})
	count := func(q string) int { return len(e.must(200, "GET", v+"/trigger_instances/active"+q, nil).items()) }
	cases := map[string]int{
		"":                    1,
		"?show_disabled=true": 2,
		"?showDisabled=true":  2,
		"?show_disabled=true&connected_account_ids=" + ca:                           1,
		"?show_disabled=true&auth_config_ids=" + ac:                                 2,
		"?show_disabled=true&trigger_names=STRIPE_PAYMENT_FAILED_TRIGGER":           1,
		"?show_disabled=true&user_ids=u1,u2":                                        2,
		"?show_disabled=true&trigger_ids=" + t1 + "," + t2:                          2,
		"?show_disabled=true&limit=1":                                               1,
		"?show_disabled=true&limit=1&page=2":                                        1,
		"?show_disabled=true&limit=1&page=3":                                        0,
		"?show_disabled=true&deprecatedConnectedAccountUuids=" + accountUUID(e, ca): 1,
		"?show_disabled=true&deprecated_auth_config_uuids=" + e.must(200, "GET", v+"/auth_configs/"+ac, nil).str("uuid"): 2,
		"?show_disabled=true&deprecatedAuthConfigUuids=00000000-0000-0000-0000-000000000000":                             0,
	}
	for q, want := range cases {
		if got := count(q); got != want {
			t.Errorf("%q: %d, want %d", q, got, want)
		}
	}
	if r := e.must(200, "GET", v+"/trigger_instances/active?show_disabled=true&limit=1&page=2", nil); r.get("current_page") != 2.0 || r.get("next_cursor") != nil {
		t.Fatalf("legacy page: %s", r.raw)
	}
	e.mustErr(400, "page", "GET", v+"/trigger_instances/active?page=0", nil)
	d := e.must(200, "GET", v+"/trigger_instances/active?show_disabled=true&trigger_ids="+t1, nil).items()[0]
	if d["disabled_at"] == nil || d["disabledAt"] == nil {
		t.Fatalf("disabled_at: %v", d)
	}
	e.must(200, "PATCH", manage+t1, map[string]any{"status": "enable"})
	if r := e.must(200, "DELETE", manage+t1, nil); r.str("trigger_id") != t1 {
		t.Fatal(r.raw)
	}
	// a deleted instance: DELETE again is 409, manage is 410 (as in the reference); unknown ids stay 404
	e.mustErr(409, "already deleted", "DELETE", manage+t1, nil)
	e.mustErr(410, "was deleted", "PATCH", manage+t1, map[string]any{"status": "enable"})
	e.mustErr(404, "not found", "DELETE", manage+"ti_unknown", nil)
}

func TestTriggerTombstones(t *testing.T) {
	path := t.TempDir() + "/db"
	opts := Options{DataPath: path, APIKeys: map[string]string{"ka": "a", "kb": "b"}}
	e := newEnv(t, opts)
	e.key = "ka"
	ca := e.apiKeyAccount(e.createCustomAC("stripe", "API_KEY", nil), "u1")
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_PAYMENT_FAILED_TRIGGER/upsert", map[string]any{"connected_account_id": ca}).str("trigger_id")
	manage := v + "/trigger_instances/manage/"
	// deleting the account deletes its instances, which then answer as deleted
	e.must(200, "DELETE", v+"/connected_accounts/"+ca, nil)
	e.mustErr(409, "already deleted", "DELETE", manage+ti, nil)
	e.mustErr(410, "was deleted", "PATCH", manage+ti, map[string]any{"status": "disable"})
	// other projects see nothing
	e.key = "kb"
	e.mustErr(404, "not found", "DELETE", manage+ti, nil)
	// tombstones survive a restart
	e.ts.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := newEnv(t, opts)
	e2.key = "ka"
	e2.mustErr(409, "already deleted", "DELETE", manage+ti, nil)
}

// accountUUID is the legacy uuid of connected account ca, as a trigger
// instance of it reports it (connected_account_uuid): the account answers
// carry no uuid, as documented.
func accountUUID(e *testEnv, ca string) string {
	for _, it := range e.must(200, "GET", v+"/trigger_instances/active?show_disabled=true&connected_account_ids="+ca, nil).items() {
		if u, _ := it["connected_account_uuid"].(string); u != "" {
			return u
		}
	}
	e.t.Fatalf("no trigger instance of %s reports its uuid", ca)
	return ""
}

// TestTriggerEgressURL: an upsert's egress_url (S3) sets, for that instance
// only, where its events are delivered (the project's subscription still
// required); an upsert of the same instance without it leaves it, null
// removes it; it must be an absolute https URL (no plain http, not even to a
// loopback host), and no read answer carries it.
func TestTriggerEgressURL(t *testing.T) {
	e := newEnv(t, Options{WebhookMaxAttempts: 1})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	up := func(body map[string]any) resp {
		body["connected_account_id"] = ca
		return e.do("POST", v+"/trigger_instances/STRIPE_PAYMENT_FAILED_TRIGGER/upsert", body)
	}
	checkErr(t, up(map[string]any{"egress_url": "http://127.0.0.1:1/plain"}), 400, "egress_url must be an absolute https URL")
	checkErr(t, up(map[string]any{"egress_url": "/relative"}), 400, "egress_url must be an absolute https URL")
	checkErr(t, up(map[string]any{"egress_url": 5}), 400, "egress_url must be a string or null")

	rec := &hookRecorder{done: make(chan struct{})}
	hook := httptest.NewServer(rec)
	defer hook.Close()
	e.must(200, "PUT", "/_emulator/webhook", map[string]any{"url": hook.URL, "secret": "s"})
	const egress = "https://127.0.0.1:1/egress" // nothing listens: the delivery fails at once
	r := up(map[string]any{"egress_url": egress})
	if r.status != 200 {
		t.Fatal(r.raw)
	}
	ti := r.str("trigger_id")
	lastURL := func() string {
		e.must(200, "POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{"x": 1})
		deliveries, _ := e.must(200, "GET", "/_emulator/stats", nil).get("webhooks", "deliveries").([]any)
		d, _ := deliveries[len(deliveries)-1].(map[string]any)
		return d["url"].(string)
	}
	if got := lastURL(); got != egress {
		t.Fatalf("delivered to %s, want the instance's egress_url %s", got, egress)
	}
	if item := e.must(200, "GET", v+"/trigger_instances/active?trigger_ids="+ti, nil).items()[0]; item["egress_url"] != nil {
		t.Fatalf("the list answer carries egress_url, which the document's does not: %v", item)
	}
	if again := up(map[string]any{}).str("trigger_id"); again != ti {
		t.Fatalf("the same upsert answered %s, want %s", again, ti)
	}
	if got := lastURL(); got != egress {
		t.Fatalf("an upsert without egress_url changed it: delivered to %s", got)
	}
	up(map[string]any{"egress_url": nil})
	if got := lastURL(); got != hook.URL {
		t.Fatalf("egress_url null: delivered to %s, want the subscription's %s", got, hook.URL)
	}
	select {
	case <-rec.done:
	case <-time.After(5 * time.Second):
		t.Fatal("not delivered to the subscription after egress_url was removed")
	}
}
