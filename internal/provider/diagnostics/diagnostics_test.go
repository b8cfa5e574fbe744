package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

func TestAddAPIError(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	err := fmt.Errorf("wrapped: %w", &client.APIError{
		StatusCode: 400, Code: 1234, Slug: "ValidationError", Message: "Missing client_secret",
		RequestID: "req_42", SuggestedFix: "Provide client_secret.", Errors: []string{"client_secret is required"},
		Method: "POST", Path: "/api/v3.1/auth_configs",
	})
	AddAPIError(&diags, "creating", "service_auth_config", "", err)
	if len(diags) != 1 || diags[0].Summary() != "Error creating service_auth_config" {
		t.Fatalf("summary: %v", diags)
	}
	detail := diags[0].Detail()
	for _, want := range []string{"Missing client_secret.", "client_secret is required", "HTTP status: 400 Bad Request",
		"Error code: 1234 (ValidationError)", "Request ID: req_42", "Suggested fix: Provide client_secret.", "POST /api/v3.1/auth_configs"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, detail)
		}
	}

	diags = nil
	AddAPIErrorAt(&diags, path.Root("toolkit"), "reading", "service_auth_config", "ac_1", &client.APIError{StatusCode: 401})
	if diags[0].Summary() != "Error reading service_auth_config ac_1" || !strings.Contains(diags[0].Detail(), "Unauthorized") ||
		!strings.Contains(diags[0].Detail(), envAPIKey) {
		t.Fatalf("401: %v", diags)
	}

	for _, e := range []error{context.DeadlineExceeded, fmt.Errorf("x: %w", client.ErrWaitTimeout), client.ErrConnectionFailed, errors.New("boom")} {
		diags = nil
		AddAPIError(&diags, "deleting", "service_trigger_instance", "ti_1", e)
		if !diags.HasError() || !strings.Contains(diags[0].Detail(), "deleting service_trigger_instance ti_1") {
			t.Errorf("%v: %v", e, diags)
		}
	}
}

func TestAddRemovedFromStateWarning(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	AddRemovedFromStateWarning(&diags, "service_connected_account", "ca_1")
	if diags.HasError() || len(diags.Warnings()) != 1 || !strings.Contains(diags[0].Detail(), "removed from the Terraform state") {
		t.Fatalf("got %v", diags)
	}
}

func TestAddLookupError(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	AddLookupError(&diags, path.Root("slug"), "trigger type", "NOPE", "20250901_00", &client.APIError{StatusCode: 404})
	if diags[0].Summary() != "Unknown trigger type" || !strings.Contains(diags[0].Detail(), `Attribute slug: the service has no trigger type "NOPE" at toolkit version 20250901_00`) {
		t.Fatalf("not found: %v", diags)
	}
	diags = nil
	AddLookupError(&diags, path.Root("toolkit"), "toolkit", "github", "", &client.APIError{StatusCode: 500, Message: "boom"})
	if diags[0].Summary() != "Error reading toolkit github" || !strings.Contains(diags[0].Detail(), "boom") {
		t.Fatalf("other error: %v", diags)
	}
}

func TestAddDeleteError(t *testing.T) {
	t.Parallel()
	never := func(error) bool { return false }
	for _, tc := range []struct {
		err      error
		alsoGone []func(error) bool
		wantErr  bool
	}{
		{nil, nil, false},
		{&client.APIError{StatusCode: 404}, nil, false},
		{&client.APIError{StatusCode: 410}, nil, false},
		{&client.APIError{StatusCode: 409}, nil, true},
		{&client.APIError{StatusCode: 409}, []func(error) bool{never, client.IsConflict}, false},
		{&client.APIError{StatusCode: 500}, []func(error) bool{never, client.IsConflict}, true},
	} {
		var diags diag.Diagnostics
		AddDeleteError(&diags, "service_trigger_instance", "ti_1", tc.err, tc.alsoGone...)
		if diags.HasError() != tc.wantErr {
			t.Errorf("%v (%d alsoGone): diagnostics %v, want error %v", tc.err, len(tc.alsoGone), diags, tc.wantErr)
		}
		if tc.wantErr && diags[0].Summary() != "Error deleting service_trigger_instance ti_1" {
			t.Errorf("%v: summary %q", tc.err, diags[0].Summary())
		}
	}
}

// TestScopedKeyHint: a 403 answered to a project key names the permission
// the operation needs (read for GET, write otherwise) and its area, the
// operation and where to check; a 403 to the organization key, and other
// statuses, get no such hint.
func TestScopedKeyHint(t *testing.T) {
	t.Parallel()
	detail := func(method, p string, status int, op string) string {
		var diags diag.Diagnostics
		AddAPIError(&diags, op, "service_connected_account", "ca_1", &client.APIError{StatusCode: status, Method: method, Path: p,
			Message: "this API key does not have write permission for connected_accounts"})
		return diags[0].Detail()
	}
	d := detail("PATCH", "/api/v3.1/connected_accounts/ca_1", 403, "updating")
	for _, want := range []string{"lacks the write permission for connected_accounts that updating service_connected_account ca_1 needs",
		"PATCH /api/v3.1/connected_accounts/ca_1", "read or write per area", envAPIKey, "Check its permissions"} {
		if !strings.Contains(d, want) {
			t.Errorf("403 detail lacks %q:\n%s", want, d)
		}
	}
	if d := detail("GET", "/api/v3.1/connected_accounts/ca_1", 403, "reading"); !strings.Contains(d, "lacks the read permission for connected_accounts") {
		t.Errorf("403 on a read:\n%s", d)
	}
	for _, d := range []string{detail("GET", "/api/v3.1/org/owner/project/pr_1", 403, "reading"), detail("POST", "/api/v3.1/connected_accounts", 404, "creating")} {
		if strings.Contains(d, "lacks the") {
			t.Errorf("hint where it does not apply:\n%s", d)
		}
	}
}
