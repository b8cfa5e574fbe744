package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// customToolkitV0States are states of a service_custom_toolkit written by
// the release before mcp_url (commit a3a6d60, schema version 0: the MCP
// server URL as app_url): its provider build applied the configuration of
// TestAccE2E_customToolkitStateUpgrade (with app_url) against its emulator,
// once with Terraform 1.11.4 and once with 1.16.4 (which adds the resource
// identity), and the state files were kept as written.
var customToolkitV0States = map[string]string{
	"1.11.4": "testdata/custom_toolkit_v0_state_terraform-1.11.4.json",
	"1.16.4": "testdata/custom_toolkit_v0_state_terraform-1.16.4.json",
}

// TestAccE2E_customToolkitStateUpgrade: a state the release before mcp_url
// wrote moves to schema version 1 through the CLI with no replacement and
// no change. The toolkit it names is registered on the endpoint, the
// recorded state file is put in the workspace, and `plan
// -detailed-exitcode` is empty (exit 0) whether the configuration already
// says mcp_url or still app_url (with the deprecation warning then); an
// apply writes the upgraded state (schema version 1, mcp_url and app_url
// holding the URL) and sends nothing to the service.
func TestAccE2E_customToolkitStateUpgrade(t *testing.T) {
	w := newE2EWorkspace(t)
	cli := testutil.RequireTerraform(t)
	writtenBy := "1.16.4"
	if ok, _ := testutil.TerraformAtLeast(t, cli, 1, 16); !ok {
		writtenBy = "1.11.4" // Terraform refuses a state a later version wrote
	}
	raw, err := os.ReadFile(filepath.Clean(customToolkitV0States[writtenBy]))
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://mcp.docs.example/mcp"
	slug := "V0_" + strings.TrimPrefix(testAccCustomSlug(), "TFACC_CT_")
	state := strings.ReplaceAll(string(raw), "V0_UPGRADE", slug)
	if testutil.CLIName(cli) == "tofu" {
		// OpenTofu names the provider on its own registry.
		state = strings.ReplaceAll(state, "registry.terraform.io/", "registry.opentofu.org/")
	}

	c := testAccClient(t)
	ctx := context.Background()
	id, err := c.CreateCustomToolkit(ctx, slug, client.CustomToolkitConfig{Name: "Docs", Description: "Documentation search",
		MCPURL: url, AuthSchemes: []client.CustomAuthScheme{{Mode: client.CustomAuthAPIKey,
			Headers: map[string]string{"Authorization": "Bearer " + client.CustomAPIKeyPlaceholder}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteCustomToolkit(context.Background(), id) })
	w.WriteFile("terraform.tfstate", state)

	config := func(urlName string) string {
		return fmt.Sprintf(`
resource "service_custom_toolkit" "docs" {
  slug        = %q
  name        = "Docs"
  description = "Documentation search"
  %s = %q
  auth_scheme = {
    mode    = "API_KEY"
    headers = { Authorization = "Bearer {{generic_api_key}}" }
  }
}
`, slug, urlName, url)
	}
	writes := func() int {
		if !testAccEnvironment(t).Emulated {
			return 0 // a real endpoint: the plan's and apply's output say it
		}
		return testAccEmulatorStatsNow(t).Writes
	}
	before := writes()
	for _, urlName := range []string{"app_url", "mcp_url"} {
		w.WriteFile("main.tf", config(urlName))
		res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
		if res.ExitCode != 0 {
			t.Fatalf("%s (state written by Terraform %s): plan exit %d, want 0 (no changes)\n%s\n%s",
				urlName, writtenBy, res.ExitCode, res.Stdout, res.Stderr)
		}
		deprecated := strings.Contains(res.Stdout+res.Stderr, "Use mcp_url")
		if deprecated != (urlName == "app_url") {
			t.Errorf("%s: deprecation warning shown: %v\n%s%s", urlName, deprecated, res.Stdout, res.Stderr)
		}
	}
	res := w.RunOK("apply", "-auto-approve", "-no-color")
	if !strings.Contains(res.Stdout, "0 added, 0 changed, 0 destroyed") {
		t.Errorf("apply after the upgrade:\n%s", res.Stdout)
	}
	if got := writes() - before; got != 0 {
		t.Errorf("the upgrade made %d writes, want none", got)
	}

	var upgraded struct {
		Resources []struct {
			Instances []struct {
				SchemaVersion int            `json:"schema_version"`
				Attributes    map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(w.ReadFile("terraform.tfstate"), &upgraded); err != nil {
		t.Fatal(err)
	}
	if len(upgraded.Resources) != 1 || len(upgraded.Resources[0].Instances) != 1 {
		t.Fatalf("state after apply: %+v", upgraded)
	}
	inst := upgraded.Resources[0].Instances[0]
	if inst.SchemaVersion != customToolkitSchemaVersion || inst.Attributes["mcp_url"] != url || inst.Attributes["app_url"] != url ||
		inst.Attributes["id"] != client.CustomToolkitPrefix+slug || inst.Attributes["description"] != "Documentation search" {
		t.Errorf("upgraded state: schema version %d, attributes %v", inst.SchemaVersion, inst.Attributes)
	}
	if res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color"); res.ExitCode != 0 {
		t.Errorf("plan after the upgrade: exit %d\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
}
