package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

// TestEveryOperationAnswers sends each operation of the package to the
// emulator (placeholder path parameters, no body): every one must reach a
// route, either its implementation or a 501 whose error envelope says the
// operation is not emulated; a 404 route miss fails.
func TestEveryOperationAnswers(t *testing.T) {
	n := requireNode(t)
	ops := operations(t, n)
	if len(ops) != 104 {
		t.Errorf("the package lists %d operations, want 104 (@composio/client 2.0.0-rc.6)", len(ops))
	}
	_, base := startEmulator(t, ops)
	var missing, bad501 []string
	emulated, userKeyOnly := 0, 0
	for _, op := range ops {
		path := op.Path
		for strings.Contains(path, "{") {
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:i] + "x_contract" + path[j+1:]
		}
		if op.Operation == "authConfigs.updateStatus" {
			path = strings.Replace(path, "/x_contract/x_contract", "/x_contract/ENABLED", 1)
		}
		req, err := http.NewRequestWithContext(context.Background(), op.Method, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		// the credential the operation takes; the emulator has no user keys,
		// so an operation taking only one answers 401 (the credential rule)
		userOnly := false
		switch {
		case slices.Contains(op.Schemes, "ApiKeyAuth"):
			req.Header.Set("x-api-key", apiKey)
		case slices.Contains(op.Schemes, "OrgApiKeyAuth"):
			req.Header.Set("x-org-api-key", emulator.DefaultOrgAPIKey)
		case slices.Contains(op.Schemes, "UserApiKeyAuth"):
			req.Header.Set("x-user-api-key", "contract-user")
			userOnly = true
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var env struct {
			Error struct {
				Message string `json:"message"`
				Code    int    `json:"code"`
				Status  int    `json:"status"`
			} `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&env)
		_ = resp.Body.Close()
		desc := fmt.Sprintf("%s %s (%s)", op.Method, op.Path, op.Operation)
		switch {
		case userOnly:
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(env.Error.Message, "invalid user API key") {
				bad501 = append(bad501, fmt.Sprintf("%s (user key only): %d %q, want 401 invalid user API key", desc, resp.StatusCode, env.Error.Message))
			}
			userKeyOnly++
		case resp.StatusCode == http.StatusNotImplemented:
			named := strings.Contains(env.Error.Message, op.Operation) ||
				strings.Contains(strings.ToLower(env.Error.Message), strings.ToLower(op.Name))
			if env.Error.Status != 501 || !strings.Contains(env.Error.Message, "not emulated") || !named {
				bad501 = append(bad501, fmt.Sprintf("%s: %q", desc, env.Error.Message))
			}
		case resp.StatusCode == http.StatusNotFound && strings.HasPrefix(env.Error.Message, "no route"):
			missing = append(missing, desc)
		case resp.StatusCode == http.StatusMethodNotAllowed:
			missing = append(missing, desc+" (405)")
		default:
			emulated++
		}
	}
	t.Logf("%d of %d operations emulated, %d answer 501, %d unrouted, %d take only a user key (401)", emulated, len(ops),
		len(ops)-emulated-len(missing)-len(bad501)-userKeyOnly, len(missing), userKeyOnly)
	if len(missing) > 0 {
		t.Errorf("%d operation(s) answer a route miss instead of an implementation or a 501:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	if len(bad501) > 0 {
		t.Errorf("%d operation(s) answer 501 without an envelope naming the operation:\n  %s", len(bad501), strings.Join(bad501, "\n  "))
	}
}
