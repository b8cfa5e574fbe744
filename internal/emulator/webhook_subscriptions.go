// Resource group webhookSubscriptions: the project's webhook subscription
// (one per project), its secret and the event types it can enable.

package emulator

import (
	"net/http"
	"slices"
	"sort"
	"strings"
)

// WebhookSubscription is a project's webhook subscription (the service allows
// one per project).
type WebhookSubscription struct {
	ID            string   `json:"id"`
	Project       string   `json:"project"`
	Seq           int64    `json:"seq"`
	WebhookURL    string   `json:"webhook_url"`
	Version       string   `json:"version"`
	EnabledEvents []string `json:"enabled_events"`
	Secret        string   `json:"secret"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// Webhook payload versions.
const (
	WebhookV1 = "V1"
	WebhookV2 = "V2"
	WebhookV3 = "V3"
)

var webhookVersions = []string{WebhookV1, WebhookV2, WebhookV3}

// Event types a subscription can enable.
const (
	EventTriggerMessage   = "composio.trigger.message"
	EventAccountExpired   = "composio.connected_account.expired"
	EventTriggerDisabled  = "composio.trigger.disabled"
	codeWebhookSubExists  = 2101
	codeWebhookSubMissing = 2100
	codeWebhookSubInvalid = 2102
)

type webhookEventType struct {
	Type        string
	Description string
	Versions    []string
}

// webhookEventTypes is the catalog answered by GET /webhook_subscriptions/event_types.
var webhookEventTypes = []webhookEventType{
	{EventTriggerMessage, "A trigger instance received an event from its toolkit.", webhookVersions},
	{EventAccountExpired, "A connected account expired and needs re-authentication.", []string{WebhookV3}},
	{EventTriggerDisabled, "A trigger instance was disabled.", []string{WebhookV3}},
}

func eventType(name string) (webhookEventType, bool) {
	for _, et := range webhookEventTypes {
		if et.Type == name {
			return et, true
		}
	}
	return webhookEventType{}, false
}

func init() { registerGroup((*Server).registerWebhookSubscriptions) }

func (s *Server) registerWebhookSubscriptions() {
	s.handle("postApiV31WebhookSubscriptions", s.createWebhookSub)
	s.handle("getApiV31WebhookSubscriptions", s.listWebhookSubs)
	s.handle("getApiV31WebhookSubscriptionsEventTypes", s.listWebhookEventTypes)
	s.handle("getApiV31WebhookSubscriptionsById", s.getWebhookSub)
	s.handle("patchApiV31WebhookSubscriptionsById", s.updateWebhookSub)
	s.handle("deleteApiV31WebhookSubscriptionsById", s.deleteWebhookSub)
	s.handle("postApiV31WebhookSubscriptionsByIdRotateSecret", s.rotateWebhookSecret)
}

func renderWebhookSub(w *WebhookSubscription) map[string]any {
	events := slices.Clone(w.EnabledEvents)
	if events == nil {
		events = []string{}
	}
	return map[string]any{
		"id": w.ID, "webhook_url": w.WebhookURL, "version": w.Version, "enabled_events": events,
		"secret": w.Secret, "created_at": w.CreatedAt, "updated_at": w.UpdatedAt,
	}
}

func newWebhookSecret() string { return "whsec_" + randString(32) }

// projectWebhookSub returns the project's subscription or nil; callers hold st.mu.
func (st *store) projectWebhookSub(project string) *WebhookSubscription {
	for _, w := range st.webhookSubs {
		if w.Project == project {
			return w
		}
	}
	return nil
}

func (c *call) webhookSub(id string) (*WebhookSubscription, *apiError) {
	w := c.s.st.webhookSubs[id]
	if w == nil || w.Project != c.project {
		return nil, errNotFound(codeWebhookSubMissing, "WebhookSubscription_NotFound", "webhook subscription", id)
	}
	return w, nil
}

// webhookSubBody is the create/update body; nil members were not sent.
type webhookSubBody struct {
	WebhookURL    *string   `json:"webhook_url"`
	EnabledEvents *[]string `json:"enabled_events"`
	Version       *string   `json:"version"`
}

func invalidSub(field, format string, args ...any) *apiError {
	e := errValidation(field, format, args...)
	e.Code, e.Slug = codeWebhookSubInvalid, "WebhookSubscription_Invalid"
	return e
}

// validWebhookURL accepts https URLs, and http URLs whose host is a loopback
// address or localhost (local receivers during development).
func validWebhookURL(raw string) *apiError {
	switch secureURL(raw) {
	case urlNotAbsolute:
		return invalidSub("webhook_url", "webhook_url must be an absolute https URL, got %q", raw)
	case urlPlainHTTP:
		return invalidSub("webhook_url", "webhook_url must use https (plain http is accepted only for loopback hosts), got %q", raw)
	}
	return nil
}

func validWebhookVersion(v string) *apiError {
	if !slices.Contains(webhookVersions, v) {
		return invalidSub("version", "version must be one of V1, V2, V3, got %q", v)
	}
	return nil
}

// validEvents checks that events is a non-empty list of known event types
// that the version delivers, and returns it without duplicates (in order).
func validEvents(events []string, version string) ([]string, *apiError) {
	if len(events) == 0 {
		return nil, invalidSub("enabled_events", "enabled_events must list at least one event type")
	}
	out := make([]string, 0, len(events))
	for _, ev := range events {
		et, ok := eventType(ev)
		if !ok {
			known := make([]string, len(webhookEventTypes))
			for i, k := range webhookEventTypes {
				known[i] = k.Type
			}
			return nil, invalidSub("enabled_events", "unknown event type %q (known: %s)", ev, strings.Join(known, ", ")).
				fix("List the event types with GET /api/v3.1/webhook_subscriptions/event_types.")
		}
		if !slices.Contains(et.Versions, version) {
			return nil, invalidSub("enabled_events", "event type %q is not delivered in version %s (supported: %s)",
				ev, version, strings.Join(et.Versions, ", "))
		}
		if !slices.Contains(out, ev) {
			out = append(out, ev)
		}
	}
	return out, nil
}

func (s *Server) createWebhookSub(c *call) (int, any, *apiError) {
	var body webhookSubBody
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.WebhookURL == nil {
		return 0, nil, invalidSub("webhook_url", "webhook_url is required")
	}
	if body.EnabledEvents == nil {
		return 0, nil, invalidSub("enabled_events", "enabled_events is required")
	}
	version := WebhookV3
	if body.Version != nil {
		version = *body.Version
	}
	if e := validWebhookURL(*body.WebhookURL); e != nil {
		return 0, nil, e
	}
	if e := validWebhookVersion(version); e != nil {
		return 0, nil, e
	}
	events, e := validEvents(*body.EnabledEvents, version)
	if e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if old := s.st.projectWebhookSub(c.project); old != nil {
		return 0, nil, newErr(http.StatusConflict, codeWebhookSubExists, "WebhookSubscription_AlreadyExists",
			"this project already has a webhook subscription (%s); only one subscription is allowed per project", old.ID).
			fix("Update the existing subscription with PATCH /api/v3.1/webhook_subscriptions/" + old.ID + ", or delete it first.")
	}
	w, err := s.storeWebhookSub(c.project, *body.WebhookURL, version, events, "")
	if err != nil {
		return 0, nil, internalErr(err)
	}
	return http.StatusCreated, renderWebhookSub(w), nil
}

// storeWebhookSub creates a subscription (secret "" = generated); callers hold st.mu.
func (s *Server) storeWebhookSub(project, webhookURL, version string, events []string, secret string) (*WebhookSubscription, error) {
	if secret == "" {
		secret = newWebhookSecret()
	}
	now := s.st.stamp()
	w := &WebhookSubscription{
		ID: newID("whs"), Project: project, Seq: s.st.nextSeq(), WebhookURL: webhookURL, Version: version,
		EnabledEvents: events, Secret: secret, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.st.commit(put(bucketWebhookSubs, w.ID, w)); err != nil {
		return nil, err
	}
	s.log.Info("webhook subscription created", "id", w.ID, "project", project, "version", version)
	return w, nil
}

func (s *Server) listWebhookSubs(c *call) (int, any, *apiError) {
	s.st.mu.RLock()
	var items []*WebhookSubscription
	for _, w := range s.st.webhookSubs {
		if w.Project == c.project {
			items = append(items, w)
		}
	}
	s.st.mu.RUnlock()
	sort.Slice(items, func(i, j int) bool { return items[i].Seq < items[j].Seq })
	return answerPage(c.r, items, maxLimitSmall, func(w *WebhookSubscription) any { return renderWebhookSub(w) })
}

func (s *Server) listWebhookEventTypes(c *call) (int, any, *apiError) {
	items := make([]map[string]any, len(webhookEventTypes))
	for i, et := range webhookEventTypes {
		items[i] = map[string]any{"event_type": et.Type, "description": et.Description, "supported_versions": slices.Clone(et.Versions)}
	}
	return 200, map[string]any{"items": items}, nil
}

func (s *Server) getWebhookSub(c *call) (int, any, *apiError) {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	w, e := c.webhookSub(c.r.PathValue("id"))
	if e != nil {
		return 0, nil, e
	}
	return 200, renderWebhookSub(w), nil
}

// modifyWebhookSub applies change to a copy of the call's {id} subscription
// and stores it with a new updated_at.
func (s *Server) modifyWebhookSub(c *call, change func(w *WebhookSubscription) *apiError) (*WebhookSubscription, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.webhookSub(c.r.PathValue("id"))
	if e != nil {
		return nil, e
	}
	w := *old
	if e := change(&w); e != nil {
		return nil, e
	}
	w.UpdatedAt = s.st.stamp()
	if err := s.st.commit(put(bucketWebhookSubs, w.ID, &w)); err != nil {
		return nil, internalErr(err)
	}
	return &w, nil
}

func (s *Server) updateWebhookSub(c *call) (int, any, *apiError) {
	var body webhookSubBody
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	w, e := s.modifyWebhookSub(c, func(w *WebhookSubscription) *apiError {
		if body.WebhookURL != nil {
			if e := validWebhookURL(*body.WebhookURL); e != nil {
				return e
			}
			w.WebhookURL = *body.WebhookURL
		}
		if body.Version != nil {
			if e := validWebhookVersion(*body.Version); e != nil {
				return e
			}
			w.Version = *body.Version
		}
		events := w.EnabledEvents
		if body.EnabledEvents != nil {
			events = *body.EnabledEvents
		}
		var e *apiError
		w.EnabledEvents, e = validEvents(events, w.Version)
		return e
	})
	if e != nil {
		return 0, nil, e
	}
	return 200, renderWebhookSub(w), nil
}

func (s *Server) deleteWebhookSub(c *call) (int, any, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	w, e := c.webhookSub(c.r.PathValue("id"))
	if e != nil {
		return 0, nil, e
	}
	if err := s.st.commit(del(bucketWebhookSubs, w.ID)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"success": true}, nil
}

func (s *Server) rotateWebhookSecret(c *call) (int, any, *apiError) {
	w, e := s.modifyWebhookSub(c, func(w *WebhookSubscription) *apiError {
		w.Secret = newWebhookSecret()
		return nil
	})
	if e != nil {
		return 0, nil, e
	}
	return 200, map[string]any{"id": w.ID, "secret": w.Secret}, nil
}

// configureProjectWebhook points the project's subscription at webhookURL
// (creating it with the trigger message event in V3 when missing) and sets
// its secret when one is given. It backs --webhook-url and PUT /_emulator/webhook.
func (s *Server) configureProjectWebhook(project, webhookURL, secret string) (*WebhookSubscription, error) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old := s.st.projectWebhookSub(project)
	if old == nil {
		return s.storeWebhookSub(project, webhookURL, WebhookV3, []string{EventTriggerMessage}, secret)
	}
	w := *old
	w.WebhookURL = webhookURL
	if secret != "" {
		w.Secret = secret
	}
	w.UpdatedAt = s.st.stamp()
	if err := s.st.commit(put(bucketWebhookSubs, w.ID, &w)); err != nil {
		return nil, err
	}
	return &w, nil
}
