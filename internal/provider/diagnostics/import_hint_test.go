package diagnostics

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// importBlock returns the import block a message shows (from "import {" to
// the first line that is "}" alone, indentation removed).
func importBlock(t *testing.T, msg string) string {
	t.Helper()
	start := strings.Index(msg, "import {")
	if start < 0 {
		t.Fatalf("no import block in:\n%s", msg)
	}
	var lines []string
	for _, l := range strings.Split(msg[start:], "\n") {
		lines = append(lines, strings.TrimSpace(l))
		if strings.TrimSpace(l) == "}" {
			return strings.Join(lines, "\n") + "\n"
		}
	}
	t.Fatalf("import block not closed in:\n%s", msg)
	return ""
}

// TestImportHintParses: the import block of every "already exists" error
// parses as HCL as it is copied, names the resource type in `to` and the
// object's id in `id`, and the terraform import command names the same.
func TestImportHintParses(t *testing.T) {
	t.Parallel()
	for typ, id := range map[string]string{
		"service_webhook_subscription": "ws_AbC123",
		"service_connected_account":    "ca_AbC123",
		"service_custom_toolkit":       "tf_toolkit",
		"service_project":              "proj_AbC123",
		"service_trigger_instance":     "ti_AbC123",
	} {
		msg := ImportHint(typ, id)
		src := importBlock(t, msg)
		f, diags := hclsyntax.ParseConfig([]byte(src), "hint.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: the import block does not parse: %s\n%s", typ, diags, src)
		}
		body := f.Body.(*hclsyntax.Body)
		if len(body.Blocks) != 1 || body.Blocks[0].Type != "import" {
			t.Fatalf("%s: want one import block, got %d blocks:\n%s", typ, len(body.Blocks), src)
		}
		attrs := body.Blocks[0].Body.Attributes
		to, err := hcl.AbsTraversalForExpr(attrs["to"].Expr)
		if err != nil || len(to) != 2 || to.RootName() != typ || to[1].(hcl.TraverseAttr).Name != "NAME" {
			t.Errorf("%s: to is not %s.NAME: %v\n%s", typ, typ, err, src)
		}
		v, d := attrs["id"].Expr.Value(nil)
		if d.HasErrors() || v.AsString() != id {
			t.Errorf("%s: id is not %q: %v\n%s", typ, id, d, src)
		}
		if !strings.Contains(msg, "terraform import "+typ+".NAME "+id) {
			t.Errorf("%s: no terraform import command for %s:\n%s", typ, id, msg)
		}
	}
}
