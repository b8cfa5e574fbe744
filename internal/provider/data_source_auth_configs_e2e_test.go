package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccE2E_authConfigsPagesOf200: 250 auth configs are read in 2 list
// requests (pages of 200, the service's maximum for this list since
// 2026-09-21), counted by the emulator for the project of their own, during
// one `terraform plan` of the service_auth_configs data source.
func TestAccE2E_authConfigsPagesOf200(t *testing.T) {
	w := newE2EWorkspace(t)
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	const n = 250
	for i := range n {
		if _, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged,
			Name: fmt.Sprintf("page-%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	w.WriteFile("main.tf", listProvider(key)+`
data "service_auth_configs" "all" {}

output "count" {
  value = length(data.service_auth_configs.all.auth_configs)
}
`)
	before := testAccProjectRequests(t, key, routeListAuthConfigs)
	res := w.RunOK("plan", "-no-color")
	if got := testAccProjectRequests(t, key, routeListAuthConfigs) - before; got != 2 {
		t.Errorf("reading %d auth configs took %d list requests, want 2 (pages of 200)", n, got)
	}
	if m := regexp.MustCompile(`count\s*=\s*(\d+)`).FindStringSubmatch(res.Stdout); m == nil || m[1] != strconv.Itoa(n) {
		t.Errorf("the data source read %v auth configs, want %d:\n%s", m, n, res.Stdout)
	}
}
