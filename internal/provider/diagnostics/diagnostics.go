// Package diagnostics turns the service's errors into the provider's
// diagnostics: what failed, the service's answer, and how to fix it.
package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// AddAPIError adds an error diagnostic for a failed service call.
//
//	operation:    a verb in -ing form: "creating", "reading", "updating", "deleting", "importing", "enabling", ...
//	resourceType: the Terraform type name, e.g. "service_auth_config"
//	id:           the object id or slug ("" when not known yet, e.g. on create)
//
// Summary: "Error creating service_auth_config" / "Error reading service_auth_config ac_123".
// Detail: the service message, HTTP status, error code, request id and the
// suggested fix, taken from *client.APIError when err wraps one. The client
// never puts credentials in its errors, and neither does this function.
func AddAPIError(diags *diag.Diagnostics, operation, resourceType, id string, err error) {
	summary, detail := APIErrorText(operation, resourceType, id, err)
	diags.AddError(summary, detail)
}

// AddAPIErrorAt is AddAPIError attached to an attribute (for example a
// plan-time lookup of the toolkit named by `toolkit`).
func AddAPIErrorAt(diags *diag.Diagnostics, attr path.Path, operation, resourceType, id string, err error) {
	summary, detail := APIErrorText(operation, resourceType, id, err)
	diags.AddAttributeError(attr, summary, detail)
}

func APIErrorText(operation, resourceType, id string, err error) (string, string) {
	subject := strings.TrimSpace(resourceType + " " + id)
	summary := strings.TrimSpace("Error " + operation + " " + subject)

	var b strings.Builder
	var apiErr *client.APIError
	switch {
	case errors.As(err, &apiErr):
		msg := apiErr.Message
		if msg == "" {
			msg = http.StatusText(apiErr.StatusCode)
		}
		fmt.Fprintf(&b, "The service rejected the request while %s %s: %s\n", operation, subject, ensurePeriod(msg))
		for _, e := range apiErr.Errors {
			fmt.Fprintf(&b, "  - %s\n", e)
		}
		b.WriteString("\n")
		status := fmt.Sprintf("%d", apiErr.StatusCode)
		if t := http.StatusText(apiErr.StatusCode); t != "" {
			status += " " + t
		}
		fmt.Fprintf(&b, "HTTP status: %s\n", status)
		if apiErr.Method != "" || apiErr.Path != "" {
			fmt.Fprintf(&b, "Request: %s\n", strings.TrimSpace(apiErr.Method+" "+apiErr.Path))
		}
		if apiErr.Code != 0 || apiErr.Slug != "" {
			code := ""
			if apiErr.Code != 0 {
				code = fmt.Sprintf("%d", apiErr.Code)
			}
			if apiErr.Slug != "" {
				code = strings.TrimSpace(code + " (" + apiErr.Slug + ")")
			}
			fmt.Fprintf(&b, "Error code: %s\n", code)
		}
		if apiErr.RequestID != "" {
			fmt.Fprintf(&b, "Request ID: %s\n", apiErr.RequestID)
		}
		fix := apiErr.SuggestedFix
		if fix == "" {
			fix = defaultFix(apiErr.StatusCode, apiErr.Path)
		}
		if fix != "" {
			fmt.Fprintf(&b, "Suggested fix: %s\n", fix)
		}
		if hint := refusedKeyHint(apiErr.StatusCode, apiErr.Path); hint != "" {
			fmt.Fprintf(&b, "\n%s\n", hint)
		}
		if hint := scopedKeyHint(apiErr.StatusCode, apiErr.Method, apiErr.Path, operation+" "+subject); hint != "" {
			fmt.Fprintf(&b, "\n%s\n", hint)
		}
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(&b, "The request timed out while %s %s: %s\n\n", operation, subject, err)
		b.WriteString("Suggested fix: check connectivity to the service, or raise request_timeout (provider) or the resource's timeouts.\n")
	case errors.Is(err, client.ErrWaitTimeout):
		fmt.Fprintf(&b, "Timed out while %s %s: %s\n\n", operation, subject, err)
		b.WriteString("Suggested fix: complete the connection (open its redirect_url), or raise the create timeout.\n")
	case errors.Is(err, client.ErrConnectionFailed):
		fmt.Fprintf(&b, "The connection did not succeed while %s %s: %s\n", operation, subject, err)
	default:
		fmt.Fprintf(&b, "An error occurred while %s %s: %s\n", operation, subject, err)
	}
	return summary, strings.TrimRight(b.String(), "\n")
}

func ensurePeriod(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// The environment variables of the provider's keys that refusedKeyHint
// names: the provider's EnvAPIKey and EnvOrgAPIKey (TestRefusedKeyHint in
// internal/provider fails if they differ).
const (
	envAPIKey    = "SERVICE_API_KEY"
	envOrgAPIKey = "SERVICE_ORG_API_KEY" //nolint:gosec // G101: the name of an environment variable, not a credential
)

// defaultFix is the suggested fix of an error whose answer has none. A 401
// has none here: refusedKeyHint names the key whatever the service says.
func defaultFix(status int, apiPath string) string {
	if status == http.StatusForbidden && isOrgPath(apiPath) {
		return "check that the organization API key's organization owns this project."
	}
	switch status {
	case http.StatusForbidden:
		return "check that the API key's project may access this object."
	case http.StatusTooManyRequests:
		return "the service kept rate limiting this request for as long as the provider waits (10 minutes, or the resource's timeout); " +
			"retry later, or set max_requests_per_minute below the organization's limit to leave room for its other pipelines."
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return "the service is unavailable; retry later."
	}
	return ""
}

// isOrgPath reports a request made with the organization's key (the
// organization's project operations, under /org/).
func isOrgPath(apiPath string) bool { return strings.Contains(apiPath, "/org/") }

// refusedKeyHint says, for a 401, which setting holds the key the service
// refused, whatever the service's own suggestion: api_key (or org_api_key
// for the organization's operations) of the provider configuration that
// manages the object. A provider is never told its alias, so the hint points
// at it through the object Terraform names with the error (its `provider`
// argument, or the `providers` of its module). After a project key's
// rotation this is the error of every configuration still holding the
// earlier key, so it says that too.
func refusedKeyHint(status int, apiPath string) string {
	if status != http.StatusUnauthorized {
		return ""
	}
	if isOrgPath(apiPath) {
		return "The key refused is the organization key: org_api_key of the provider configuration that manages this " +
			"object (or the " + envOrgAPIKey + " environment variable when that provider block sets none). " +
			"Check that it is the organization's key, not a project's (api_key)."
	}
	return "The key refused is api_key of the provider configuration that manages this object: the provider block " +
		"named by the `provider` argument of the resource or data source shown above, or passed to its module in " +
		"`providers` (for example `providers = { service = service.staging }`), else the default `provider \"service\"` " +
		"block (or the " + envAPIKey + " environment variable when that block sets no api_key). If the project's key " +
		"was rotated (a change of api_key_rotation of its service_project), that configuration still holds the earlier " +
		"key, which stopped working: give it the new one (the service_project's api_key, for example through the " +
		"variable or secret it is read from)."
}

// scopedKeyHint says, for a 403 answered to a project key, that the key
// lacks the permission the operation needs: the service's project keys can
// be scoped to read or write per area (changelogs 2026-08-28 and 09-21), so
// a read-only key plans (plans only read) and is refused at apply. The
// permission is read for GET, write otherwise; the area is the path's first
// segment below the API prefix (auth_configs, connected_accounts, ...).
func scopedKeyHint(status int, method, apiPath, operation string) string {
	if status != http.StatusForbidden || isOrgPath(apiPath) {
		return ""
	}
	area := apiPath
	for _, prefix := range []string{client.APIPrefix + "/", "/api/v3/"} {
		if rest, ok := strings.CutPrefix(apiPath, prefix); ok {
			area, _, _ = strings.Cut(rest, "/")
			break
		}
	}
	need := "write"
	if method == http.MethodGet || method == http.MethodHead {
		need = "read"
	}
	return fmt.Sprintf("The project API key lacks the %s permission for %s that %s needs (%s %s): the service's project "+
		"keys can be scoped to read or write per area, and a key that may only read plans without an error and is "+
		"refused when the apply writes. The key is api_key of the provider configuration that manages this object "+
		"(or the %s environment variable when that provider block sets none). Check its permissions in the service's "+
		"dashboard (the project's API key settings), then grant it %s for %s or use a key that has it.",
		need, area, operation, method, apiPath, envAPIKey, need, area)
}

// ReadFailed handles the error of the GET in a resource's Read: a NotFound
// removes the resource from state (RemoveFromState), any other error is
// reported with AddAPIError ("reading"). It returns false when err is nil, true
// when Read should return.
func ReadFailed(ctx context.Context, resp *resource.ReadResponse, resourceType, id string, err error) bool {
	if err == nil {
		return false
	}
	if client.IsNotFound(err) {
		RemoveFromState(ctx, resp, resourceType, id)
		return true
	}
	AddAPIError(&resp.Diagnostics, "reading", resourceType, id, err)
	return true
}

// RemoveFromState removes the resource from state in Read, with the warning
// of AddRemovedFromStateWarning.
func RemoveFromState(ctx context.Context, resp *resource.ReadResponse, resourceType, id string) {
	AddRemovedFromStateWarning(&resp.Diagnostics, resourceType, id)
	resp.State.RemoveResource(ctx)
}

// AddDeleteError reports the error of a Delete call unless it says the object
// is already gone: a NotFound, or an error any of alsoGone accepts.
func AddDeleteError(diags *diag.Diagnostics, resourceType, id string, err error, alsoGone ...func(error) bool) {
	if err == nil || client.IsNotFound(err) {
		return
	}
	for _, gone := range alsoGone {
		if gone(err) {
			return
		}
	}
	AddAPIError(diags, "deleting", resourceType, id, err)
}

// LogRevokeJob logs the revoke job a delete with revoke_on_delete started.
func LogRevokeJob(ctx context.Context, resourceType, id, jobID string) {
	if jobID != "" {
		tflog.Info(ctx, resourceType+" deleted; the service revokes the upstream credentials in the background",
			map[string]any{"id": id, "revoke_job_id": jobID})
	}
}

// AddRemovedFromStateWarning adds the warning shown when Read finds that an
// object no longer exists (404, or a DELETED status) and the resource is
// removed from state (RemoveFromState).
func AddRemovedFromStateWarning(diags *diag.Diagnostics, resourceType, id string) {
	diags.AddWarning(
		fmt.Sprintf("%s %s no longer exists", resourceType, id),
		fmt.Sprintf("The %s with id %q was not found on the service; it was probably deleted outside Terraform. "+
			"It has been removed from the Terraform state, and the next apply will create it again if it is still "+
			"in the configuration.", resourceType, id))
}

// AddLookupError reports a failed plan-time lookup of a catalog object named
// by an attribute, e.g. the toolkit of `toolkit` or the trigger type of
// `slug`. kind is "toolkit" or "trigger type"; version is the toolkit version
// the lookup used (the provider's ProviderData.VersionFor). A NotFound becomes
// "Unknown <kind>" naming the attribute and value; other errors go through
// AddAPIErrorAt with operation "reading <kind>".
func AddLookupError(diags *diag.Diagnostics, attr path.Path, kind, name, version string, err error) {
	AddLookupErrorSuggest(diags, attr, kind, name, version, err, nil)
}

// AddLookupErrorSuggest is AddLookupError whose NotFound error ends with
// suggest() (a did-you-mean sentence, called on that error path only).
func AddLookupErrorSuggest(diags *diag.Diagnostics, attr path.Path, kind, name, version string, err error, suggest func() string) {
	if client.IsNotFound(err) {
		hint := ""
		if suggest != nil {
			hint = suggest()
		}
		at := ""
		if version != "" {
			at = " at toolkit version " + version
		}
		diags.AddAttributeError(attr, "Unknown "+kind,
			fmt.Sprintf("Attribute %s: the service has no %s %q%s.%s Check the spelling (the service_toolkits and "+
				"service_trigger_types data sources list what exists) and the provider's toolkit versions.",
				attr, kind, name, at, hint))
		return
	}
	AddAPIErrorAt(diags, attr, "reading "+kind, "", name, err)
}

// GetForDataSource fetches the object a data source looks up by its id
// attribute. A NotFound becomes an error on id with the given summary and the
// detail "Attribute id: <missing> "<id>"." (missing says who lacks what, e.g.
// "the project has no MCP server"); other errors become an API diagnostic for
// reading dataSourceType. It returns nil exactly when it added an error.
func GetForDataSource[T any](ctx context.Context, diags *diag.Diagnostics, get func(context.Context, string) (*T, error),
	dataSourceType, id, summary, missing string) *T {
	got, err := get(ctx, id)
	if err != nil {
		if client.IsNotFound(err) {
			diags.AddAttributeError(path.Root("id"), summary, fmt.Sprintf("Attribute id: %s %q.", missing, id))
			return nil
		}
		AddAPIError(diags, "reading", dataSourceType, id, err)
		return nil
	}
	return got
}

// AddNotFoundByName is GetForDataSource's error for a lookup by the name
// attribute that matched nothing: "Attribute name: <missing> named "<name>"."
// (missing as for GetForDataSource), naming the names that differ only in
// case, the likely typo.
func AddNotFoundByName(diags *diag.Diagnostics, summary, missing, name string, nearMatches []string) {
	hint := ""
	if len(nearMatches) > 0 {
		hint = fmt.Sprintf(" (names differing only in case: %s)", strings.Join(nearMatches, ", "))
	}
	diags.AddAttributeError(path.Root("name"), summary, fmt.Sprintf("Attribute name: %s named %q%s.", missing, name, hint))
}
