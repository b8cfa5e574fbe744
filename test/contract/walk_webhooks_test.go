package contract

import "net/url"

// walkWebhookSubscriptions walks the project's webhook subscription: event
// types, create (and the refused second create and bad bodies), list, get,
// update, rotate, delete.
func (w *walker) walkWebhookSubscriptions() {
	w.t.Helper()
	w.must("GET", "/webhook_subscriptions/event_types", nil, nil)
	w.reject("a webhook subscription with an unknown event", "POST", "/webhook_subscriptions", nil, map[string]any{
		"webhook_url": "https://hooks.example.com/x", "enabled_events": []string{"composio.nope"}})
	w.reject("a webhook subscription with version V4", "POST", "/webhook_subscriptions", nil, map[string]any{
		"webhook_url": "https://hooks.example.com/x", "enabled_events": []string{"composio.trigger.message"}, "version": "V4"})
	w.reject("a webhook subscription without webhook_url", "POST", "/webhook_subscriptions", nil, map[string]any{
		"enabled_events": []string{"composio.trigger.message"}})
	sub := w.must("POST", "/webhook_subscriptions", nil, map[string]any{
		"webhook_url": "https://hooks.example.com/walk", "enabled_events": []string{"composio.trigger.message"}, "version": "V2"})
	id := sub.str("id")
	w.reject("a second webhook subscription of the project", "POST", "/webhook_subscriptions", nil, map[string]any{
		"webhook_url": "https://hooks.example.com/other", "enabled_events": []string{"composio.trigger.message"}})
	w.pages("/webhook_subscriptions", nil, 1)
	w.must("GET", "/webhook_subscriptions", url.Values{}, nil)
	w.must("GET", "/webhook_subscriptions/"+id, nil, nil)
	w.must("PATCH", "/webhook_subscriptions/"+id, nil, map[string]any{
		"webhook_url": "https://hooks.example.com/walk2", "version": "V3",
		"enabled_events": []string{"composio.trigger.message", "composio.connected_account.expired"}})
	w.must("PATCH", "/webhook_subscriptions/"+id, nil, map[string]any{})
	w.must("POST", "/webhook_subscriptions/"+id+"/rotate_secret", nil, nil)
	w.must("DELETE", "/webhook_subscriptions/"+id, nil, nil)
	w.do("GET", "/webhook_subscriptions/"+id, nil, nil) // 404 envelope
}
