package provider

import (
	"fmt"
	"testing"
)

// TestAccE2E_mcpServerCost counts requests per terraform command for two MCP
// servers over the same two auth configs: plan reads each auth config and
// each toolkit's tools once per provider run, lists the project's servers
// once (the name check) and writes nothing; create is
// one write and no read per server; a refresh is one GET per server and no
// lookups. Not parallel: it reads process-wide counters.
func TestAccE2E_mcpServerCost(t *testing.T) {
	w := newE2EWorkspace(t)
	testAccRequireEmulator(t)
	gh, gm := testAccMCPExistingACs(t)
	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_mcp_server" "a" {
  name            = %[1]q
  auth_config_ids = [%[3]q, %[4]q]
  allowed_tools   = ["GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"]
}

resource "service_mcp_server" "b" {
  name            = %[2]q
  auth_config_ids = [%[3]q, %[4]q]
  allowed_tools   = ["GITHUB_GET_A_REPOSITORY"]
}
`, testAccMCPName(), testAccMCPName(), gh, gm))
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-no-color") })

	type counts struct{ acGet, tools, create, get, list, writes int }
	snap := func() counts {
		s := testAccEmulatorStatsNow(t)
		return counts{s.Requests[routeGetAuthConfig], s.Requests[routeListTools], s.Requests[routeCreateMCPServer],
			s.Requests[routeGetMCPServer], s.Requests[routeListMCPServers], s.Writes}
	}
	delta := func(a, b counts) counts {
		return counts{b.acGet - a.acGet, b.tools - a.tools, b.create - a.create, b.get - a.get, b.list - a.list, b.writes - a.writes}
	}

	c0 := snap()
	w.RunOK("plan", "-out=tfplan", "-no-color")
	c1 := snap()
	if d := delta(c0, c1); d != (counts{acGet: 2, tools: 2, list: 1}) {
		t.Errorf("plan: want 2 auth config GETs, 2 tool lists (one per toolkit) and 1 MCP server list (names), nothing else; got %+v", d)
	}
	w.RunOK("apply", "-no-color", "tfplan")
	c2 := snap()
	// The apply re-plans in a new provider process (its lookups are the
	// plan's, cached once per run); the creates themselves read nothing.
	if d := delta(c1, c2); d.create != 2 || d.writes != 2 || d.get != 0 || d.list > 1 || d.acGet > 2 || d.tools > 2 {
		t.Errorf("apply: want 2 creates (2 writes), no MCP server GET, <=1 MCP server list, <=2 auth config GETs and tool lists; got %+v", d)
	}
	res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
	if res.ExitCode != 0 {
		t.Fatalf("plan after apply not empty (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	c3 := snap()
	if d := delta(c2, c3); d != (counts{get: 2}) {
		t.Errorf("refresh+plan: want exactly one GET per server and nothing else; got %+v", d)
	}
}
