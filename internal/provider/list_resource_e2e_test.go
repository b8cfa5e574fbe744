package provider

import (
	"regexp"
	"testing"
)

// TestAccE2E_listFilterErrors (`terraform query`, Terraform 1.14+): a toolkit
// a list filter names that the service does not have fails the query (exit
// non-zero) with the resources' did-you-mean, instead of listing nothing
// with exit 0; and every filter error, the catalog's and a validator's (an
// enum value), points at the value written in the list block's `config`
// block (the source line Terraform quotes), not at the block's first line
// (protocol.ListConfigPaths).
func TestAccE2E_listFilterErrors(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	requireQueryCLI(t)
	testAccRequireEmulator(t)
	w.WriteFile("provider.tf", `provider "service" {}`+"\n")
	for _, tc := range []struct {
		typ, filter string
		want        []string // fragments after the quoted source line, in order
	}{
		{authConfigResourceType, `toolkit = "githb"`, []string{`Attribute toolkit: the service has no toolkit "githb"`, `Did you mean "github"\?`}},
		{connectedAccountType, `toolkit_slugs = ["stripe", "strpe"]`, []string{`Attribute toolkit_slugs\[1\]: the service has no toolkit "strpe"`, `Did you mean "stripe"\?`}},
		{mcpServerType, `toolkits = ["slak"]`, []string{`no toolkit "slak"`, `Did you mean "slack"\?`}},
		{webhookEndpointType, `toolkit = "notin"`, []string{`no toolkit "notin"`, `Did you mean "notion"\?`}},
		// A validator's error (before any request): on the value too.
		{connectedAccountType, `statuses = ["ACTIVATED"]`, []string{`ACTIVATED`}},
	} {
		w.WriteFile("typo.tfquery.hcl", listBlock(tc.typ, "typo", "    "+tc.filter+"\n", ""))
		res := w.Run(nil, "query", "-no-color")
		out := res.Stdout + res.Stderr
		// Terraform quotes the line the diagnostic's path leads to: the
		// filter's, not `list "..." "typo" {` (a path it could not follow).
		re := testAccErrRe(append([]string{`Error: `, `on typo.tfquery.hcl line 4, in list "` + tc.typ + `" "typo":`,
			`4: ` + regexp.QuoteMeta(tc.filter)}, tc.want...)...)
		if res.ExitCode == 0 || !re.MatchString(out) {
			t.Errorf("terraform query with %s { %s }: exit %d, want non-zero and output matching %s:\n%s", tc.typ, tc.filter, res.ExitCode, re, out)
		}
	}
}
