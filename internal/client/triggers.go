package client

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"net/url"
	"strings"
)

// TriggerInstance is an active (or disabled) trigger instance.
type TriggerInstance struct {
	ID                 string         `json:"id"`
	UUID               string         `json:"uuid"`
	ConnectedAccountID string         `json:"connected_account_id"`
	UserID             string         `json:"user_id"`
	TriggerName        string         `json:"trigger_name"`
	UpdatedAt          string         `json:"updated_at"`
	Version            string         `json:"version"`
	DisabledAt         *string        `json:"disabled_at"`
	TriggerConfig      map[string]any `json:"trigger_config"`
}

// UnmarshalJSON falls back to the legacy camelCase duplicates.
func (t *TriggerInstance) UnmarshalJSON(b []byte) error {
	type plain TriggerInstance
	var p struct {
		plain
		ConnectedAccountIDCamel string         `json:"connectedAccountId"`
		TriggerNameCamel        string         `json:"triggerName"`
		UpdatedAtCamel          string         `json:"updatedAt"`
		DisabledAtCamel         *string        `json:"disabledAt"`
		TriggerConfigCamel      map[string]any `json:"triggerConfig"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = TriggerInstance(p.plain)
	if t.ConnectedAccountID == "" {
		t.ConnectedAccountID = p.ConnectedAccountIDCamel
	}
	if t.TriggerName == "" {
		t.TriggerName = p.TriggerNameCamel
	}
	if t.UpdatedAt == "" {
		t.UpdatedAt = p.UpdatedAtCamel
	}
	if t.DisabledAt == nil {
		t.DisabledAt = p.DisabledAtCamel
	}
	if t.TriggerConfig == nil {
		t.TriggerConfig = p.TriggerConfigCamel
	}
	return nil
}

// IsDisabled reports whether the instance is disabled (disabled_at set).
func (t *TriggerInstance) IsDisabled() bool { return t.DisabledAt != nil && *t.DisabledAt != "" }

// TriggerInstanceListParams filters ListActiveTriggers. Limit is the page size.
type TriggerInstanceListParams struct {
	AuthConfigIDs       []string
	ConnectedAccountIDs []string
	TriggerIDs          []string
	TriggerNames        []string
	UserIDs             []string
	ShowDisabled        bool
	Limit               int
}

func (p TriggerInstanceListParams) query() url.Values {
	q := url.Values{}
	setList(q, "auth_config_ids", p.AuthConfigIDs)
	setList(q, "connected_account_ids", p.ConnectedAccountIDs)
	setList(q, "trigger_ids", p.TriggerIDs)
	setList(q, "trigger_names", p.TriggerNames)
	setList(q, "user_ids", p.UserIDs)
	if p.ShowDisabled {
		q.Set("show_disabled", "true")
	}
	setLimit(q, p.Limit)
	return q
}

const activeTriggersPath = "/trigger_instances/active"

// TriggerInstancesIter iterates over trigger instances matching p.
func (c *Client) TriggerInstancesIter(ctx context.Context, p TriggerInstanceListParams) iter.Seq2[TriggerInstance, error] {
	return paginate[TriggerInstance](ctx, c, activeTriggersPath, p.query())
}

// ListActiveTriggers returns all trigger instances matching p.
func (c *Client) ListActiveTriggers(ctx context.Context, p TriggerInstanceListParams) ([]TriggerInstance, error) {
	return collect(c.TriggerInstancesIter(ctx, p))
}

// TriggerInstancesPage reads the page of the trigger instances matching p
// at cursor ("" = the first page; p.Limit is the page size).
func (c *Client) TriggerInstancesPage(ctx context.Context, p TriggerInstanceListParams, cursor string) (Page[TriggerInstance], error) {
	return pageOf[TriggerInstance](ctx, c, activeTriggersPath, p.query(), cursor)
}

// GetTriggerInstance finds one instance (enabled or disabled) with a single
// GET /trigger_instances/active?trigger_ids=<id>&show_disabled=true. A
// missing instance yields a 404 *APIError (IsNotFound is true).
func (c *Client) GetTriggerInstance(ctx context.Context, id string) (*TriggerInstance, error) {
	q := url.Values{"trigger_ids": {id}, "show_disabled": {"true"}}
	var p page[TriggerInstance]
	if err := c.do(ctx, http.MethodGet, activeTriggersPath, q, nil, &p); err != nil {
		return nil, err
	}
	for i := range p.Items {
		if p.Items[i].ID == id || p.Items[i].UUID == id {
			return &p.Items[i], nil
		}
	}
	return nil, notFound(http.MethodGet, APIPrefix+activeTriggersPath, "Trigger instance "+id+" not found")
}

// UpsertTriggerRequest creates or updates a trigger instance. Either
// ConnectedAccountID or UserID identifies the account. ToolkitVersions nil or
// empty sends "latest".
type UpsertTriggerRequest struct {
	ConnectedAccountID string
	UserID             string
	TriggerConfig      map[string]any
	ToolkitVersions    *ToolkitVersions
	// EgressURL overrides where this instance's events are delivered (an
	// https URL instead of the project's webhook subscription URL, which
	// still decides signing, version and events). nil leaves the instance's
	// override as it is (a new instance has none) and sends nothing; a
	// pointer to "" removes it (sent as null); any other value sets it.
	// No read answer carries it.
	EgressURL *string
}

// egressBody is the wire value of UpsertTriggerRequest.EgressURL: nil
// (omitted), null or the URL.
func egressBody(u *string) json.RawMessage {
	switch {
	case u == nil:
		return nil
	case *u == "":
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(*u)
	return b
}

// UpsertTrigger sends POST /trigger_instances/{slug}/upsert and returns the
// trigger id. toolkit_versions goes in the body as a string or an object.
func (c *Client) UpsertTrigger(ctx context.Context, slug string, r UpsertTriggerRequest) (string, error) {
	cfg := r.TriggerConfig
	if cfg == nil {
		cfg = map[string]any{}
	}
	body := struct {
		ConnectedAccountID string          `json:"connected_account_id,omitempty"`
		UserID             string          `json:"user_id,omitempty"`
		TriggerConfig      map[string]any  `json:"trigger_config"`
		ToolkitVersions    any             `json:"toolkit_versions"`
		EgressURL          json.RawMessage `json:"egress_url,omitempty"`
	}{r.ConnectedAccountID, r.UserID, cfg, r.ToolkitVersions.bodyValue(toolkitOfSlug(slug)), egressBody(r.EgressURL)}
	var out struct {
		TriggerID string `json:"trigger_id"` // the answer's one documented member
	}
	path := "/trigger_instances/" + escape(slug) + "/upsert"
	defer c.reads.expect(triggerReads)()
	// Idempotent: an identical upsert returns the same instance.
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, path, nil, body, &out); err != nil {
		return "", err
	}
	if out.TriggerID == "" {
		return "", errors.New("POST " + APIPrefix + path + ": response has no trigger_id")
	}
	return out.TriggerID, nil
}

func (c *Client) manageTrigger(ctx context.Context, id, status string) error {
	body := struct {
		Status string `json:"status"`
	}{status}
	return c.do(ctx, http.MethodPatch, "/trigger_instances/manage/"+escape(id), nil, body, nil)
}

// EnableTrigger enables a trigger instance.
func (c *Client) EnableTrigger(ctx context.Context, id string) error {
	return c.manageTrigger(ctx, id, "enable")
}

// DisableTrigger disables a trigger instance.
func (c *Client) DisableTrigger(ctx context.Context, id string) error {
	return c.manageTrigger(ctx, id, "disable")
}

// DeleteTrigger deletes a trigger instance.
func (c *Client) DeleteTrigger(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/trigger_instances/manage/"+escape(id), nil, nil, nil)
}

// TriggerType describes a kind of trigger; Config and Payload are JSON Schemas.
type TriggerType struct {
	Slug         string         `json:"slug"`
	Name         string         `json:"name"`
	Description  string         `json:"description"`
	Instructions string         `json:"instructions"`
	Type         string         `json:"type"` // webhook | poll
	Version      string         `json:"version"`
	Toolkit      ToolkitRef     `json:"toolkit"`
	Config       map[string]any `json:"config"`
	Payload      map[string]any `json:"payload"`
	// RequiresWebhookEndpointSetup is true when the developer must register a
	// service-issued webhook URL with the upstream provider (a webhook
	// endpoint, see CreateWebhookEndpoint) for the trigger to fire when it
	// runs on the developer's own OAuth app.
	RequiresWebhookEndpointSetup bool `json:"requires_webhook_endpoint_setup,omitempty"`
}

// TriggerTypeListParams filters ListTriggerTypes. Limit is the page size.
type TriggerTypeListParams struct {
	ToolkitSlugs []string
	Versions     *ToolkitVersions
	Limit        int
}

// TriggerTypesIter iterates over trigger types matching p.
func (c *Client) TriggerTypesIter(ctx context.Context, p TriggerTypeListParams) iter.Seq2[TriggerType, error] {
	q := url.Values{}
	setList(q, "toolkit_slugs", p.ToolkitSlugs)
	p.Versions.setQuery(q, p.ToolkitSlugs...)
	setLimit(q, p.Limit)
	return paginate[TriggerType](ctx, c, "/triggers_types", q)
}

// ListTriggerTypes returns all trigger types matching p.
func (c *Client) ListTriggerTypes(ctx context.Context, p TriggerTypeListParams) ([]TriggerType, error) {
	return collect(c.TriggerTypesIter(ctx, p))
}

// GetTriggerType fetches one trigger type at the versions selected.
func (c *Client) GetTriggerType(ctx context.Context, slug string, versions *ToolkitVersions) (*TriggerType, error) {
	q := url.Values{}
	versions.setQuery(q, toolkitOfSlug(slug))
	var out TriggerType
	if err := c.do(ctx, http.MethodGet, "/triggers_types/"+escape(slug), q, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ToolkitPrefix is the toolkit a trigger type's slug starts with: the part
// before its first underscore, in lower case ("GITHUB_COMMIT_EVENT":
// "github"), as the service's SDK guesses it where a payload or an instance
// names no toolkit.
func ToolkitPrefix(slug string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(slug), "_")
	return strings.ToLower(first)
}
