package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/webhooksig"
)

const whs = v + "/webhook_subscriptions"

func TestWebhookSubscriptionLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	e.must(200, "GET", whs+"/event_types", nil)
	if got := e.must(200, "GET", whs, nil); got.get("total_items") != 0.0 || len(got.items()) != 0 {
		t.Fatal(got.raw)
	}
	c := e.must(201, "POST", whs, map[string]any{
		"webhook_url": "https://example.com/hook", "enabled_events": []string{EventTriggerMessage},
	})
	id, secret := c.str("id"), c.str("secret")
	if !strings.HasPrefix(id, "whs_") || c.str("version") != "V3" || secret == "" || c.str("created_at") == "" ||
		c.str("updated_at") == "" || len(c.get("enabled_events").([]any)) != 1 {
		t.Fatal(c.raw)
	}
	// one subscription per project
	e.mustErr(409, "already has a webhook subscription", "POST", whs, map[string]any{
		"webhook_url": "https://example.com/other", "enabled_events": []string{EventTriggerMessage},
	})
	g := e.must(200, "GET", whs+"/"+id, nil)
	if g.str("secret") != secret || g.str("webhook_url") != "https://example.com/hook" {
		t.Fatal(g.raw)
	}
	u := e.must(200, "PATCH", whs+"/"+id, map[string]any{"version": "V1", "webhook_url": "http://127.0.0.1:9/x"})
	if u.str("version") != "V1" || u.str("webhook_url") != "http://127.0.0.1:9/x" || u.str("updated_at") == c.str("updated_at") ||
		u.str("created_at") != c.str("created_at") {
		t.Fatal(u.raw)
	}
	// V1 does not deliver the expiry event
	e.mustErr(400, "not delivered in version V1", "PATCH", whs+"/"+id, map[string]any{"enabled_events": []string{EventAccountExpired}})
	r := e.must(200, "POST", whs+"/"+id+"/rotate_secret", nil)
	if r.str("id") != id || r.str("secret") == "" || r.str("secret") == secret || len(r.body) != 2 {
		t.Fatal(r.raw)
	}
	if l := e.must(200, "GET", whs, nil).items(); len(l) != 1 || l[0]["secret"] != r.str("secret") {
		t.Fatal(l)
	}
	if d := e.must(200, "DELETE", whs+"/"+id, nil); d.get("success") != true {
		t.Fatal(d.raw)
	}
	e.mustErr(404, "not found", "GET", whs+"/"+id, nil)
	e.mustErr(404, "not found", "DELETE", whs+"/"+id, nil)
	e.mustErr(404, "not found", "POST", whs+"/"+id+"/rotate_secret", nil)
	e.must(201, "POST", whs, map[string]any{"webhook_url": "https://example.com/hook", "enabled_events": []string{EventTriggerMessage}})
}

func TestWebhookSubscriptionProjectsAreIsolated(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{"k1": "p1", "k2": "p2"}})
	e.key = "k1"
	id := e.must(201, "POST", whs, map[string]any{"webhook_url": "https://a.example/h", "enabled_events": []string{EventTriggerMessage}}).str("id")
	e.key = "k2"
	e.mustErr(404, "not found", "GET", whs+"/"+id, nil)
	e.must(201, "POST", whs, map[string]any{"webhook_url": "https://b.example/h", "enabled_events": []string{EventTriggerMessage}})
	if l := e.must(200, "GET", whs, nil).items(); len(l) != 1 || l[0]["id"] == id {
		t.Fatal(l)
	}
}

func TestWebhookSubscriptionValidation(t *testing.T) {
	e := newEnv(t, Options{})
	ok := []string{EventTriggerMessage}
	cases := []struct {
		body any
		want string
	}{
		{map[string]any{"enabled_events": ok}, "webhook_url is required"},
		{map[string]any{"webhook_url": "https://x.example"}, "enabled_events is required"},
		{map[string]any{"webhook_url": "http://x.example/h", "enabled_events": ok}, "must use https"},
		{map[string]any{"webhook_url": "ftp://x.example/h", "enabled_events": ok}, "absolute https URL"},
		{map[string]any{"webhook_url": "not a url", "enabled_events": ok}, "absolute https URL"},
		{map[string]any{"webhook_url": "https://x.example", "enabled_events": []string{}}, "at least one"},
		{map[string]any{"webhook_url": "https://x.example", "enabled_events": []string{"composio.nope"}}, "unknown event type"},
		{map[string]any{"webhook_url": "https://x.example", "enabled_events": ok, "version": "V4"}, "version must be one of"},
		{map[string]any{"webhook_url": "https://x.example", "enabled_events": []string{EventAccountExpired}, "version": "V2"}, "not delivered in version V2"},
		{map[string]any{"webhook_url": 5, "enabled_events": ok}, "not valid JSON"},
	}
	for _, tc := range cases {
		e.mustErr(400, tc.want, "POST", whs, tc.body)
	}
	if st := e.must(200, "GET", "/_emulator/stats", nil); st.get("writes") != 0.0 {
		t.Fatalf("rejected creates counted as writes: %s", st.raw)
	}
	for _, u := range []string{"http://localhost:8080/h", "http://127.0.0.1/h", "http://[::1]:1/h"} {
		id := e.must(201, "POST", whs, map[string]any{"webhook_url": u, "enabled_events": ok}).str("id")
		e.must(200, "DELETE", whs+"/"+id, nil)
	}
}

// receiver records signed deliveries.
type receiver struct {
	ch chan http.Header
	bs chan []byte
}

func newReceiver(t *testing.T) (*receiver, string) {
	rc := &receiver{ch: make(chan http.Header, 16), bs: make(chan []byte, 16)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.ch <- r.Header.Clone()
		rc.bs <- b
		w.WriteHeader(200)
	}))
	t.Cleanup(srv.Close)
	return rc, srv.URL
}

func (rc *receiver) next(t *testing.T) (http.Header, []byte) {
	t.Helper()
	select {
	case h := <-rc.ch:
		return h, <-rc.bs
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery")
		return nil, nil
	}
}

func TestWebhookDeliveryInEachVersion(t *testing.T) {
	e := newEnv(t, Options{WebhookBackoff: 10 * time.Millisecond})
	rc, url := newReceiver(t)
	sub := e.must(201, "POST", whs, map[string]any{
		"webhook_url": url, "enabled_events": []string{EventTriggerMessage, EventAccountExpired}, "version": "V3",
	})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca}).str("trigger_id")
	for _, version := range []string{"V3", "V2", "V1"} {
		e.must(200, "PATCH", whs+"/"+sub.str("id"), map[string]any{"version": version, "enabled_events": []string{EventTriggerMessage}})
		f := e.must(200, "POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{"charge_id": "ch_" + version})
		if f.get("queued") != true {
			t.Fatal(f.raw)
		}
		h, body := rc.next(t)
		id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
		if id != f.str("webhook_id") || h.Get("x-composio-webhook-version") != version || h.Get("x-composio-delivery-attempt") != "1" ||
			h.Get("webhook-signature") != webhooksig.Sign(sub.str("secret"), id, ts, body) {
			t.Fatalf("%s: headers %v", version, h)
		}
		var p map[string]any
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		switch version {
		case "V3":
			if p["type"] != EventTriggerMessage || p["id"] != id || p["data"].(map[string]any)["charge_id"] != "ch_V3" {
				t.Fatalf("V3 %s", body)
			}
		case "V2":
			d := p["data"].(map[string]any)
			if p["type"] != "stripe_charge_succeeded_trigger" || p["log_id"] == nil || d["connection_nano_id"] != ca ||
				d["trigger_nano_id"] != ti || d["user_id"] != "u1" || d["charge_id"] != "ch_V2" || d["trigger_id"] == ti {
				t.Fatalf("V2 %s", body)
			}
		case "V1":
			if p["trigger_name"] != "STRIPE_CHARGE_SUCCEEDED_TRIGGER" || p["connection_id"] != ca || p["trigger_id"] != ti ||
				p["payload"].(map[string]any)["charge_id"] != "ch_V1" || p["log_id"] == nil {
				t.Fatalf("V1 %s", body)
			}
		}
	}
	// a disabled event is not delivered; the expiry event is (V3 only)
	e.must(200, "PATCH", whs+"/"+sub.str("id"), map[string]any{"version": "V3", "enabled_events": []string{EventAccountExpired}})
	if f := e.must(200, "POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{}); f.get("queued") != false {
		t.Fatal(f.raw)
	}
	e.must(200, "POST", "/_emulator/connected_accounts/"+ca+"/expire", nil)
	h, body := rc.next(t)
	var p map[string]any
	_ = json.Unmarshal(body, &p)
	if p["type"] != EventAccountExpired || p["data"].(map[string]any)["id"] != ca || h.Get("webhook-id") != p["id"] {
		t.Fatalf("expired %s", body)
	}
	// the delivery log in stats
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := e.must(200, "GET", "/_emulator/stats", nil)
		log, _ := st.get("webhooks", "deliveries").([]any)
		if len(log) == 4 && log[3].(map[string]any)["state"] == "delivered" {
			first := log[0].(map[string]any)
			if first["version"] != "V3" || first["subscription_id"] != sub.str("id") || first["attempts"] != 1.0 ||
				first["event_type"] != EventTriggerMessage || first["last_status"] != 200.0 {
				t.Fatal(st.raw)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(st.raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWebhookFlagCreatesSubscription(t *testing.T) {
	e := newEnv(t, Options{WebhookURL: "https://hooks.example/x", WebhookSecret: "s3cret"})
	l := e.must(200, "GET", whs, nil).items()
	if len(l) != 1 || l[0]["webhook_url"] != "https://hooks.example/x" || l[0]["secret"] != "s3cret" || l[0]["version"] != "V3" {
		t.Fatal(l)
	}
	e.mustErr(409, "already has", "POST", whs, map[string]any{"webhook_url": "https://x.example", "enabled_events": []string{EventTriggerMessage}})
}
