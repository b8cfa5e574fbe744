package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// WebhookSubscription is a project's webhook subscription (the service allows
// one per project). Secret signs the deliveries (see webhooktest.VerifyWebhook).
type WebhookSubscription struct {
	ID            string   `json:"id"`
	WebhookURL    string   `json:"webhook_url"`
	Version       string   `json:"version"`
	EnabledEvents []string `json:"enabled_events"`
	Secret        string   `json:"secret"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// WebhookEventType is an event a subscription can enable.
type WebhookEventType struct {
	EventType         string   `json:"event_type"`
	Description       string   `json:"description"`
	SupportedVersions []string `json:"supported_versions"`
}

// CreateWebhookSubscriptionRequest is the body of a create. Version ""
// leaves the service default (V3).
type CreateWebhookSubscriptionRequest struct {
	WebhookURL    string   `json:"webhook_url"`
	EnabledEvents []string `json:"enabled_events"`
	Version       string   `json:"version,omitempty"`
}

// UpdateWebhookSubscriptionRequest is the body of an update; nil members are
// left unchanged.
type UpdateWebhookSubscriptionRequest struct {
	WebhookURL    *string  `json:"webhook_url,omitempty"`
	EnabledEvents []string `json:"enabled_events,omitempty"`
	Version       *string  `json:"version,omitempty"`
}

const webhookSubsPath = "/webhook_subscriptions"

func webhookSubPath(id string) string { return webhookSubsPath + "/" + escape(id) }

// CreateWebhookSubscription creates the project's subscription. A project
// that already has one gets a 409 *APIError (IsConflict).
//
// When the create fails without a definite answer (a transport failure
// after the request was sent, or a 502/504), the service may have created
// the subscription: the project's subscriptions are listed once and a
// subscription with the requested URL, version and events is returned as
// the result (its natural key: one per project).
func (c *Client) CreateWebhookSubscription(ctx context.Context, r CreateWebhookSubscriptionRequest) (*WebhookSubscription, error) {
	var out WebhookSubscription
	err := c.do(ctx, http.MethodPost, webhookSubsPath, nil, r, &out)
	if err == nil {
		if out.ID == "" {
			return nil, errors.New("POST " + APIPrefix + webhookSubsPath + ": response has no id")
		}
		return &out, nil
	}
	if !ambiguousWrite(err) || ctx.Err() != nil {
		return nil, err
	}
	subs, lerr := c.ListWebhookSubscriptions(ctx)
	if lerr != nil {
		return nil, fmt.Errorf("%w (checking whether it was applied: %w)", err, lerr)
	}
	for i := range subs {
		if subs[i].matches(r) {
			return &subs[i], nil
		}
	}
	return nil, err
}

func (w *WebhookSubscription) matches(r CreateWebhookSubscriptionRequest) bool {
	version := r.Version
	if version == "" {
		version = "V3"
	}
	if w.WebhookURL != r.WebhookURL || w.Version != version || len(w.EnabledEvents) != len(r.EnabledEvents) {
		return false
	}
	have := make(map[string]bool, len(w.EnabledEvents))
	for _, e := range w.EnabledEvents {
		have[e] = true
	}
	for _, e := range r.EnabledEvents {
		if !have[e] {
			return false
		}
	}
	return true
}

// ambiguousWrite reports whether a failed write may have been applied: the
// request went out but no definite answer came back.
func ambiguousWrite(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusBadGateway || apiErr.StatusCode == http.StatusGatewayTimeout
	}
	return err != nil
}

// GetWebhookSubscription reads one subscription (404 *APIError when missing).
func (c *Client) GetWebhookSubscription(ctx context.Context, id string) (*WebhookSubscription, error) {
	var out WebhookSubscription
	if err := c.do(ctx, http.MethodGet, webhookSubPath(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListWebhookSubscriptions returns the project's subscriptions (all pages).
func (c *Client) ListWebhookSubscriptions(ctx context.Context) ([]WebhookSubscription, error) {
	return collect(paginate[WebhookSubscription](ctx, c, webhookSubsPath, url.Values{}))
}

// UpdateWebhookSubscription changes the members of r that are set.
func (c *Client) UpdateWebhookSubscription(ctx context.Context, id string, r UpdateWebhookSubscriptionRequest) (*WebhookSubscription, error) {
	var out WebhookSubscription
	if err := c.do(ctx, http.MethodPatch, webhookSubPath(id), nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteWebhookSubscription deletes a subscription; deliveries stop.
func (c *Client) DeleteWebhookSubscription(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, webhookSubPath(id), nil, nil, nil)
}

// RotateWebhookSecret replaces the subscription's signing secret and
// returns the new one.
func (c *Client) RotateWebhookSecret(ctx context.Context, id string) (string, error) {
	var out struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	path := webhookSubPath(id) + "/rotate_secret"
	if err := c.do(ctx, http.MethodPost, path, nil, nil, &out); err != nil {
		return "", err
	}
	if out.Secret == "" {
		return "", errors.New("POST " + APIPrefix + path + ": response has no secret")
	}
	return out.Secret, nil
}

// ListWebhookEventTypes returns the event types subscriptions can enable.
func (c *Client) ListWebhookEventTypes(ctx context.Context) ([]WebhookEventType, error) {
	var out struct {
		Items []WebhookEventType `json:"items"`
	}
	if err := c.do(ctx, http.MethodGet, webhookSubsPath+"/event_types", nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Items, nil
}
