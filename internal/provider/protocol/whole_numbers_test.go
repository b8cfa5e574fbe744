package protocol

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestWholeNumberDiagnostics: a fractional number for a whole-number
// attribute reads as a user's mistake, naming the attribute, not as a
// provider bug; other diagnostics are left alone.
func TestWholeNumberDiagnostics(t *testing.T) {
	p := tftypes.NewAttributePath().WithAttributeName("proxy_config").WithAttributeName("proxy_auth_key_wo_version")
	ds := []*tfprotov6.Diagnostic{
		{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Configuration Read Error", Attribute: p,
			Detail: "An unexpected error was encountered trying to convert an attribute value from the configuration. " +
				"This is always an error in the provider. Please report the following to the provider developer:\n\n" +
				"Value %!s(*big.Float=1.5) is not an integer."},
		{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Other", Detail: "Value 2.5 is not an integer."},
		{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Duplicate List Value", Attribute: tftypes.NewAttributePath().
			WithAttributeName("tool_access_config").WithAttributeName("tools"), Detail: `This attribute contains duplicate values of: "X"`},
	}
	rewriteNotInteger(ds)
	if ds[0].Summary != "Invalid number" || ds[0].Detail != "Attribute proxy_config.proxy_auth_key_wo_version: 1.5 is not a whole number; use an integer such as 1." {
		t.Errorf("rewritten: %q / %q", ds[0].Summary, ds[0].Detail)
	}
	if ds[2].Detail != `Attribute tool_access_config.tools: This attribute contains duplicate values of: "X"` {
		t.Errorf("the framework's duplicate error does not name its attribute: %q", ds[2].Detail)
	}
	if ds[1].Summary != "Other" {
		t.Errorf("an unrelated diagnostic was rewritten: %+v", ds[1])
	}
}
