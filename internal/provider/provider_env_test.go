package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
)

// TestRefusedKeyHint: the hint of a 401 names the environment variables the
// provider reads its keys from (package diagnostics spells them itself).
func TestRefusedKeyHint(t *testing.T) {
	t.Parallel()
	for apiPath, env := range map[string]string{"/api/v3.1/auth_configs/ac_1": EnvAPIKey, "/api/v3.1/org/projects": EnvOrgAPIKey} {
		var diags diag.Diagnostics
		diagnostics.AddAPIErrorAt(&diags, path.Root("toolkit"), "reading", "service_auth_config", "ac_1", &client.APIError{StatusCode: 401, Path: apiPath})
		if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "the "+env+" environment variable") {
			t.Errorf("401 on %s: the hint does not name %s: %v", apiPath, env, diags)
		}
	}
}
