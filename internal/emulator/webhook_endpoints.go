// Resource group webhookEndpoints: the inbound webhook endpoints of a
// project, one per (toolkit, OAuth app client_id), for toolkits whose
// trigger types need a Composio-issued URL registered with the upstream
// provider (Slack Event Subscriptions, Notion integration webhooks, Discord
// interactions); and the ingress route those URLs point at.

package emulator

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// WebhookEndpoint is an inbound webhook endpoint of a project.
type WebhookEndpoint struct {
	ID          string `json:"id"`
	Project     string `json:"project"`
	Seq         int64  `json:"seq"`
	ToolkitSlug string `json:"toolkit_slug"`
	ClientID    string `json:"client_id"`
	// Data holds the toolkit's setup fields; nil until configured (POST
	// /webhook_endpoints/{nano_id}).
	Data      map[string]string `json:"data"`
	CreatedAt string            `json:"created_at"`
	UpdatedAt string            `json:"updated_at"`
}

// bucketWebhookEndpoints holds the webhook endpoints of every project.
const bucketWebhookEndpoints = "webhook_endpoints"

// webhookIngressPath is the path (outside /api) of the URL a webhook
// endpoint gives the developer to register with the upstream provider; the
// emulator serves it without an API key, as the provider calls it.
const webhookIngressPath = "/webhook_ingress/"

// Error codes of webhook endpoints (next to the webhook subscriptions' 21xx).
const (
	codeWebhookEndpointMissing  = 2110
	codeWebhookEndpointInvalid  = 2111
	codeWebhookEndpointNotNeeds = 2112
)

func init() {
	allBuckets = append(allBuckets, bucketWebhookEndpoints)
	registerGroup((*Server).registerWebhookEndpoints)
}

func (s *Server) registerWebhookEndpoints() {
	s.handle("postApiV31WebhookEndpoints", s.createWebhookEndpoint)
	s.handle("getApiV31WebhookEndpoints", s.listWebhookEndpoints)
	s.handle("getApiV31WebhookEndpointsByNanoId", s.getWebhookEndpoint)
	s.handle("postApiV31WebhookEndpointsByNanoId", s.replaceWebhookEndpoint)
	s.handle("patchApiV31WebhookEndpointsByNanoId", s.updateWebhookEndpoint)
	s.mux.Handle("POST "+webhookIngressPath+"{id}", http.HandlerFunc(s.webhookIngress))
}

// renderWebhookEndpoint is the endpoint on the wire: webhook_url on the
// emulator's public origin, data null until configured, secrets masked.
func (s *Server) renderWebhookEndpoint(r *http.Request, we *WebhookEndpoint) map[string]any {
	var data any
	if we.Data != nil {
		secret := map[string]bool{}
		if tk, e := s.toolkitFor(we.Project, we.ToolkitSlug); e == nil {
			secret = secretFields(tk.WebhookSetupRequired, tk.WebhookSetupOptional)
		}
		out := make(map[string]string, len(we.Data))
		for k, v := range we.Data {
			if secret[k] {
				v = masked
			}
			out[k] = v
		}
		data = out
	}
	return map[string]any{
		"id": we.ID, "toolkit_slug": we.ToolkitSlug, "client_id": we.ClientID,
		"webhook_url": s.origin(r) + webhookIngressPath + we.ID, "data": data, "created_at": we.CreatedAt,
	}
}

func invalidEndpoint(field, format string, args ...any) *apiError {
	e := errValidation(field, format, args...)
	e.Code, e.Slug = codeWebhookEndpointInvalid, "WebhookEndpoint_Invalid"
	return e
}

// webhookEndpoint returns the caller's endpoint or a 404; callers hold st.mu.
func (c *call) webhookEndpoint(id string) (*WebhookEndpoint, *apiError) {
	we := c.s.st.webhookEndpoints[id]
	if we == nil || we.Project != c.project {
		return nil, errNotFound(codeWebhookEndpointMissing, "WebhookEndpoint_NotFound", "webhook endpoint", id)
	}
	return we, nil
}

// decodeFields decodes a JSON object body, refusing members other than
// allowed (400 naming them).
func (c *call) decodeFields(allowed ...string) (map[string]any, *apiError) {
	var body map[string]any
	if e := c.decode(&body); e != nil {
		return nil, e
	}
	for _, k := range slices.Sorted(maps.Keys(body)) {
		if !slices.Contains(allowed, k) {
			return nil, invalidEndpoint(k, "unknown field %s (the body has %s)", k, strings.Join(allowed, ", "))
		}
	}
	return body, nil
}

// requiredString is body[field] as a non-empty string.
func requiredString(body map[string]any, field string) (string, *apiError) {
	v, ok := body[field]
	if !ok || v == nil {
		return "", invalidEndpoint(field, "%s is required", field)
	}
	s, ok := v.(string)
	if !ok {
		return "", invalidEndpoint(field, "%s must be a string", field)
	}
	if strings.TrimSpace(s) == "" {
		return "", invalidEndpoint(field, "%s must not be empty", field)
	}
	return s, nil
}

// createWebhookEndpoint answers POST /webhook_endpoints: 201 with a new
// endpoint, 200 with the project's endpoint of the same toolkit and
// client_id when there is one.
func (s *Server) createWebhookEndpoint(c *call) (int, any, *apiError) {
	body, e := c.decodeFields("toolkit_slug", "client_id")
	if e != nil {
		return 0, nil, e
	}
	slug, e := requiredString(body, "toolkit_slug")
	if e != nil {
		return 0, nil, e
	}
	clientID, e := requiredString(body, "client_id")
	if e != nil {
		return 0, nil, e
	}
	tk, e := s.toolkitFor(c.project, slug)
	if e != nil {
		return 0, nil, e
	}
	if !tk.needsWebhookEndpoint() {
		return 0, nil, newErr(http.StatusBadRequest, codeWebhookEndpointNotNeeds, "WebhookEndpoint_NotRequired",
			"toolkit %s does not need a webhook endpoint: none of its trigger types requires webhook endpoint setup", tk.Slug).
			with("toolkit_slug: " + tk.Slug + " needs no webhook endpoint").
			fix("Only toolkits whose trigger types answer requires_webhook_endpoint_setup: true (GET /api/v3.1/triggers_types) take a webhook endpoint; the others' triggers need no setup.")
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	for _, we := range s.st.webhookEndpoints {
		if we.Project == c.project && we.ToolkitSlug == tk.Slug && we.ClientID == clientID {
			return http.StatusOK, s.renderWebhookEndpoint(c.r, we), nil
		}
	}
	now := s.st.stamp()
	we := &WebhookEndpoint{
		ID: newID("we"), Project: c.project, Seq: s.st.nextSeq(), ToolkitSlug: tk.Slug, ClientID: clientID,
		CreatedAt: now, UpdatedAt: now,
	}
	if err := s.st.commit(put(bucketWebhookEndpoints, we.ID, we)); err != nil {
		return 0, nil, internalErr(err)
	}
	s.log.Info("webhook endpoint created", "id", we.ID, "project", c.project, "toolkit", tk.Slug)
	return http.StatusCreated, s.renderWebhookEndpoint(c.r, we), nil
}

// listWebhookEndpoints answers GET /webhook_endpoints[?toolkit_slug=]: the
// project's endpoints, oldest first.
func (s *Server) listWebhookEndpoints(c *call) (int, any, *apiError) {
	slug := strings.TrimSpace(c.r.URL.Query().Get("toolkit_slug"))
	s.st.mu.RLock()
	var found []*WebhookEndpoint
	for _, we := range s.st.webhookEndpoints {
		if we.Project == c.project && (slug == "" || strings.EqualFold(we.ToolkitSlug, slug)) {
			found = append(found, we)
		}
	}
	s.st.mu.RUnlock()
	sort.Slice(found, func(i, j int) bool { return found[i].Seq < found[j].Seq })
	items := make([]map[string]any, len(found))
	for i, we := range found {
		items[i] = map[string]any{"id": we.ID, "toolkit_slug": we.ToolkitSlug, "client_id": we.ClientID}
	}
	return 200, map[string]any{"items": items}, nil
}

func (s *Server) getWebhookEndpoint(c *call) (int, any, *apiError) {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	we, e := c.webhookEndpoint(c.r.PathValue("nano_id"))
	if e != nil {
		return 0, nil, e
	}
	return 200, s.renderWebhookEndpoint(c.r, we), nil
}

// setupData reads the body's data: an object of strings whose keys are
// setup fields of tk (400 naming an unknown one and listing the fields).
func setupData(body map[string]any, tk *toolkitDef) (map[string]string, *apiError) {
	raw, ok := body["data"]
	if !ok || raw == nil {
		return nil, invalidEndpoint("data", "data is required: an object of the toolkit's setup fields (%s)", setupFieldList(tk))
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, invalidEndpoint("data", "data must be an object of strings")
	}
	out := make(map[string]string, len(obj))
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !isSetupField(tk, k) {
			return nil, invalidEndpoint("data."+k, "data.%s is not a setup field of toolkit %s (fields: %s)", k, tk.Slug, setupFieldList(tk))
		}
		v, ok := obj[k].(string)
		if !ok {
			return nil, invalidEndpoint("data."+k, "data.%s must be a string", k)
		}
		out[k] = v
	}
	return out, nil
}

func isSetupField(tk *toolkitDef, name string) bool {
	is := func(f fieldDef) bool { return f.Name == name }
	return slices.ContainsFunc(tk.WebhookSetupRequired, is) || slices.ContainsFunc(tk.WebhookSetupOptional, is)
}

// setupFieldList names the toolkit's setup fields: "signing_secret
// (required, secret), app_id".
func setupFieldList(tk *toolkitDef) string {
	var parts []string
	for _, f := range tk.WebhookSetupRequired {
		p := f.Name + " (required"
		if f.Secret {
			p += ", secret"
		}
		parts = append(parts, p+")")
	}
	for _, f := range tk.WebhookSetupOptional {
		p := f.Name
		if f.Secret {
			p += " (secret)"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// missingRequired refuses data lacking a required setup field of tk.
func missingRequired(data map[string]string, tk *toolkitDef, how string) *apiError {
	for _, f := range tk.WebhookSetupRequired {
		if strings.TrimSpace(data[f.Name]) == "" {
			return invalidEndpoint("data."+f.Name, "data.%s is required %s (toolkit %s fields: %s)", f.Name, how, tk.Slug, setupFieldList(tk))
		}
	}
	return nil
}

// modifyWebhookEndpoint stores the data change computes for the call's
// {nano_id} endpoint and answers it.
func (s *Server) modifyWebhookEndpoint(c *call, change func(old map[string]string, body map[string]any, tk *toolkitDef) (map[string]string, *apiError)) (int, any, *apiError) {
	body, e := c.decodeFields("data")
	if e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.webhookEndpoint(c.r.PathValue("nano_id"))
	if e != nil {
		return 0, nil, e
	}
	tk, e := s.toolkitFor(c.project, old.ToolkitSlug)
	if e != nil {
		return 0, nil, e
	}
	data, e := change(old.Data, body, tk)
	if e != nil {
		return 0, nil, e
	}
	we := *old
	we.Data = data
	we.UpdatedAt = s.st.stamp()
	if err := s.st.commit(put(bucketWebhookEndpoints, we.ID, &we)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, s.renderWebhookEndpoint(c.r, &we), nil
}

// replaceWebhookEndpoint answers POST /webhook_endpoints/{nano_id}: data
// replaces the setup fields and must hold every required one.
func (s *Server) replaceWebhookEndpoint(c *call) (int, any, *apiError) {
	return s.modifyWebhookEndpoint(c, func(_ map[string]string, body map[string]any, tk *toolkitDef) (map[string]string, *apiError) {
		data, e := setupData(body, tk)
		if e != nil {
			return nil, e
		}
		for k, v := range data {
			if v == "" {
				delete(data, k)
			}
		}
		return data, missingRequired(data, tk, "(POST replaces the whole configuration)")
	})
}

// updateWebhookEndpoint answers PATCH /webhook_endpoints/{nano_id}: data
// sets the fields it names ("" clears an optional one) and keeps the others;
// the result must still hold every required field.
func (s *Server) updateWebhookEndpoint(c *call) (int, any, *apiError) {
	return s.modifyWebhookEndpoint(c, func(old map[string]string, body map[string]any, tk *toolkitDef) (map[string]string, *apiError) {
		patch, e := setupData(body, tk)
		if e != nil {
			return nil, e
		}
		data := make(map[string]string, len(old)+len(patch))
		for k, v := range old {
			data[k] = v
		}
		for k, v := range patch {
			if v == "" {
				delete(data, k)
			} else {
				data[k] = v
			}
		}
		how := "(a required field cannot be cleared)"
		if old == nil {
			how = "(the endpoint is not configured yet: configure it with POST /api/v3.1/webhook_endpoints/{nano_id} giving every required field, or PATCH them all)"
		}
		return data, missingRequired(data, tk, how)
	})
}

// webhookIngress answers POST /webhook_ingress/{id}, the URL of a webhook
// endpoint as the upstream provider calls it (no API key): 200 for a known
// endpoint, echoing Slack's url_verification challenge and answering
// Discord's PING; 404 for an unknown endpoint. Calls count in
// /_emulator/stats under requests["POST /webhook_ingress/{id}"].
func (s *Server) webhookIngress(w http.ResponseWriter, r *http.Request) {
	s.countRequest(r)
	rid := newRequestID()
	w.Header().Set("x-request-id", rid)
	id := r.PathValue("id")
	s.st.mu.RLock()
	we := s.st.webhookEndpoints[id]
	s.st.mu.RUnlock()
	if we == nil {
		e := errNotFound(codeWebhookEndpointMissing, "WebhookEndpoint_NotFound", "webhook endpoint", id)
		s.writeJSON(w, e.Status, e.envelope(rid))
		return
	}
	data, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var event map[string]any
	_ = json.Unmarshal(data, &event)
	s.log.Info("webhook ingress", "endpoint", we.ID, "project", we.Project, "toolkit", we.ToolkitSlug, "bytes", len(data))
	switch {
	case event["type"] == "url_verification":
		// Slack's Event Subscriptions check: answer the challenge.
		s.writeJSON(w, http.StatusOK, map[string]any{"challenge": event["challenge"]})
	case we.ToolkitSlug == "discord" && event["type"] == float64(1):
		// Discord's interactions endpoint check: PING answers PONG.
		s.writeJSON(w, http.StatusOK, map[string]any{"type": 1})
	default:
		s.writeJSON(w, http.StatusOK, map[string]any{"ok": true})
	}
}
