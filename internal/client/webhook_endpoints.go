package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
)

// WebhookEndpoint is an inbound webhook endpoint: the URL the service issues
// for a toolkit's OAuth app (toolkit, client_id), which the developer
// registers with the upstream provider when the toolkit's triggers need it
// (a trigger type's RequiresWebhookEndpointSetup). Data holds the toolkit's
// setup fields, secret values masked.
type WebhookEndpoint struct {
	ID          string            `json:"id"`
	ToolkitSlug string            `json:"toolkit_slug"`
	ClientID    *string           `json:"client_id"`
	WebhookURL  string            `json:"webhook_url"`
	Data        map[string]string `json:"data"`
	CreatedAt   string            `json:"created_at"`
	// Existing is true when a create answered 200: an endpoint for the same
	// toolkit and client_id existed and was returned instead of a new one.
	Existing bool `json:"-"`
}

func (e *WebhookEndpoint) recordStatus(status int) { e.Existing = status == http.StatusOK }

// WebhookEndpointSummary is a webhook endpoint as the list returns it.
type WebhookEndpointSummary struct {
	ID          string  `json:"id"`
	ToolkitSlug string  `json:"toolkit_slug"`
	ClientID    *string `json:"client_id"`
}

const webhookEndpointsPath = "/webhook_endpoints"

func webhookEndpointPath(id string) string { return webhookEndpointsPath + "/" + escape(id) }

// CreateWebhookEndpoint creates the endpoint of a toolkit's OAuth app, or
// returns the existing one (Existing true): the service keeps one endpoint
// per toolkit and client_id, so the create is idempotent and is retried like
// any idempotent write.
func (c *Client) CreateWebhookEndpoint(ctx context.Context, toolkit, clientID string) (*WebhookEndpoint, error) {
	body := map[string]string{"toolkit_slug": toolkit, "client_id": clientID}
	var out WebhookEndpoint
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, webhookEndpointsPath, nil, body, &out); err != nil {
		return nil, err
	}
	if out.ID == "" {
		return nil, errors.New("POST " + APIPrefix + webhookEndpointsPath + ": response has no id")
	}
	c.claim(out.ID)
	return &out, nil
}

// GetWebhookEndpoint retrieves an endpoint (404 *APIError when unknown).
func (c *Client) GetWebhookEndpoint(ctx context.Context, id string) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	if err := c.do(ctx, http.MethodGet, webhookEndpointPath(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListWebhookEndpoints lists the project's endpoints, of one toolkit when
// toolkit is not "" (the service answers in one response, without paging).
func (c *Client) ListWebhookEndpoints(ctx context.Context, toolkit string) ([]WebhookEndpointSummary, error) {
	q := url.Values{}
	if toolkit != "" {
		q.Set("toolkit_slug", toolkit)
	}
	var out struct {
		Items []WebhookEndpointSummary `json:"items"`
	}
	if err := c.do(ctx, http.MethodGet, webhookEndpointsPath, q, nil, &out); err != nil {
		return nil, err
	}
	if out.Items == nil {
		out.Items = []WebhookEndpointSummary{}
	}
	return out.Items, nil
}

// ReplaceWebhookEndpoint sets the endpoint's setup fields (all the toolkit's
// required fields; an initial configuration). It replaces, so it is retried
// like an idempotent write.
func (c *Client) ReplaceWebhookEndpoint(ctx context.Context, id string, data map[string]string) (*WebhookEndpoint, error) {
	var out WebhookEndpoint
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, webhookEndpointPath(id), nil, map[string]any{"data": data}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
