package contract

import "net/url"

// walkWebhookEndpoints walks the inbound webhook endpoints: create (201,
// then 200 returning the same endpoint), retrieve, list with and without
// toolkit_slug, replace, patch, and the requests the emulator refuses.
func (w *walker) walkWebhookEndpoints() {
	w.t.Helper()
	w.must("GET", "/webhook_endpoints", nil, nil) // empty list
	slack := w.must("POST", "/webhook_endpoints", nil, map[string]any{"toolkit_slug": "slack", "client_id": "walk-slack-app"}).str("id")
	w.must("POST", "/webhook_endpoints", nil, map[string]any{"toolkit_slug": "slack", "client_id": "walk-slack-app"}) // 200: the same endpoint
	discord := w.must("POST", "/webhook_endpoints", nil, map[string]any{"toolkit_slug": "discord", "client_id": "walk-discord-app"}).str("id")
	w.must("POST", "/webhook_endpoints", nil, map[string]any{"toolkit_slug": "notion", "client_id": "walk-notion-app"})
	w.reject("a webhook endpoint of a toolkit that needs none", "POST", "/webhook_endpoints", nil, map[string]any{
		"toolkit_slug": "stripe", "client_id": "walk-stripe-app"})
	w.reject("a webhook endpoint of an unknown toolkit", "POST", "/webhook_endpoints", nil, map[string]any{
		"toolkit_slug": "no-such-toolkit", "client_id": "walk"})
	w.reject("a webhook endpoint without client_id", "POST", "/webhook_endpoints", nil, map[string]any{"toolkit_slug": "slack"})

	w.must("GET", "/webhook_endpoints/"+slack, nil, nil) // data null
	w.must("GET", "/webhook_endpoints", url.Values{}, nil)
	w.must("GET", "/webhook_endpoints", url.Values{"toolkit_slug": {"slack"}}, nil)
	w.must("GET", "/webhook_endpoints", url.Values{"toolkit_slug": {"linear"}}, nil) // no items

	w.must("POST", "/webhook_endpoints/"+slack, nil, map[string]any{"data": map[string]any{"signing_secret": "walk-secret", "app_id": "A0WALK"}})
	w.must("GET", "/webhook_endpoints/"+slack, nil, nil) // secret masked
	w.must("PATCH", "/webhook_endpoints/"+slack, nil, map[string]any{"data": map[string]any{"app_id": "A1WALK"}})
	w.must("PATCH", "/webhook_endpoints/"+slack, nil, map[string]any{"data": map[string]any{}})
	w.must("PATCH", "/webhook_endpoints/"+discord, nil, map[string]any{"data": map[string]any{"public_key": "walk-public-key"}})
	w.must("POST", "/webhook_endpoints/"+discord, nil, map[string]any{"data": map[string]any{"public_key": "walk-public-key-2", "application_id": "1"}})
	w.reject("a replace without a required setup field", "POST", "/webhook_endpoints/"+slack, nil, map[string]any{"data": map[string]any{"app_id": "A2"}})
	w.reject("a replace with an unknown setup field", "POST", "/webhook_endpoints/"+slack, nil, map[string]any{
		"data": map[string]any{"signing_secret": "s", "public_key": "k"}})
	w.reject("a patch with an unknown setup field", "PATCH", "/webhook_endpoints/"+slack, nil, map[string]any{"data": map[string]any{"token": "t"}})
	w.reject("a patch clearing a required setup field", "PATCH", "/webhook_endpoints/"+slack, nil, map[string]any{"data": map[string]any{"signing_secret": ""}})
	w.do("GET", "/webhook_endpoints/we_missing", nil, nil) // 404 envelope
	w.do("PATCH", "/webhook_endpoints/we_missing", nil, map[string]any{"data": map[string]any{}})
}
