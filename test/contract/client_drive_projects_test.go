package contract

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

// driveProjectClient calls the Go client's organization operations the way
// service_project and its data sources do, with the organization key only
// (each request carries exactly one credential).
func driveProjectClient(ctx context.Context, t *testing.T, baseURL string) {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: baseURL, OrgAPIKey: emulator.DefaultOrgAPIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("client %s: %v", what, err)
		}
	}
	no, show := false, client.LogVisibilityShowAll
	display := "Client drive"
	p, err := c.CreateProject(ctx, client.CreateProjectRequest{Name: "client-drive", Config: &client.ProjectConfig{
		Is2FAEnabled: false, DisplayName: &display, MaskSecretKeysInConnectedAccount: true, LogVisibilitySetting: show,
		RequireMCPAPIKey: &no,
	}})
	must("create project", err)
	// Zero Data Retention instead of log_visibility_setting (never both), and
	// a callback verifier: members of the service's v3 document.
	yes, verifier := true, "https://verify.example.com/cb"
	zdr, err := c.CreateProject(ctx, client.CreateProjectRequest{Name: "client-drive-zdr", Config: &client.ProjectConfig{
		MaskSecretKeysInConnectedAccount: true, ZDREnabled: &yes, OAuthCallbackVerifierURL: &verifier,
	}})
	must("create project with zdr_enabled", err)
	_, err = c.DeleteProject(ctx, zdr.ID, false)
	must("delete the zdr project", err)
	bare, err := c.CreateProject(ctx, client.CreateProjectRequest{Name: "client-drive-keyless", ShouldCreateAPIKey: &no})
	must("create project without a key", err)
	_, err = c.GetProject(ctx, p.ID)
	must("get project", err)
	// one project per page: the provider lists through Projects (no client
	// method takes a page size), so the request is sent raw
	rawDriver(t, baseURL).must(http.MethodGet, "/org/owner/project/list", url.Values{"limit": {"1"}}, nil)
	for _, err := range c.Projects(ctx) {
		must("list projects", err)
	}
	_, err = c.RegenerateProjectAPIKey(ctx, p.ID)
	must("regenerate project key", err)
	_, err = c.DeleteProject(ctx, bare.ID, false)
	must("delete project", err)
	_, err = c.DeleteProject(ctx, p.ID, true)
	must("delete project revoking", err)
}

// driveWebhookEndpointClient calls the Go client's webhook endpoint methods
// the way service_webhook_endpoint and service_webhook_endpoints do.
func driveWebhookEndpointClient(ctx context.Context, c *client.Client, must func(what string, err error), raw *walker) {
	e, err := c.CreateWebhookEndpoint(ctx, "slack", "client-drive-app")
	must("create webhook endpoint", err)
	_, err = c.CreateWebhookEndpoint(ctx, "slack", "client-drive-app")
	must("create webhook endpoint again (existing)", err)
	_, err = c.GetWebhookEndpoint(ctx, e.ID)
	must("get webhook endpoint", err)
	_, err = c.ListWebhookEndpoints(ctx, "")
	must("list webhook endpoints", err)
	_, err = c.ListWebhookEndpoints(ctx, "slack")
	must("list webhook endpoints of a toolkit", err)
	_, err = c.ReplaceWebhookEndpoint(ctx, e.ID, map[string]string{"signing_secret": "s1", "app_id": "A1"})
	must("replace webhook endpoint", err)
	// the provider replaces an endpoint's fields and never patches them (no
	// client method), so the patch is sent raw
	raw.must(http.MethodPatch, "/webhook_endpoints/"+url.PathEscape(e.ID), nil, map[string]any{"data": map[string]string{"signing_secret": "s2"}})
}
