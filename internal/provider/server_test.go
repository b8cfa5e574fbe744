package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/integration-service/terraform-provider-service/internal/leanrpc"
)

// Every resource listed in leanResources is served by leanrpc: a schema
// change leanrpc cannot serve exactly fails here instead of silently moving
// the resource back to the framework's slower path.
func TestLeanResourcesServed(t *testing.T) {
	srv, err := NewServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	served, skipped := srv.(wholeNumbers).ProviderServer.(*leanrpc.Server).Served()
	if len(served) != len(leanResources) {
		t.Errorf("leanrpc serves %v of %d listed resources; not served: %v", served, len(leanResources), skipped)
	}
	listed := map[string]bool{}
	for _, f := range leanResources {
		var md resource.MetadataResponse
		f().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: providerTypeName}, &md)
		listed[md.TypeName] = true
	}
	for _, name := range served {
		if !listed[name] {
			t.Errorf("leanrpc serves %s, which leanResources does not list", name)
		}
	}
}

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
	}
	rewriteNotInteger(ds)
	if ds[0].Summary != "Invalid number" || ds[0].Detail != "Attribute proxy_config.proxy_auth_key_wo_version: 1.5 is not a whole number; use an integer such as 1." {
		t.Errorf("rewritten: %q / %q", ds[0].Summary, ds[0].Detail)
	}
	if ds[1].Summary != "Other" {
		t.Errorf("an unrelated diagnostic was rewritten: %+v", ds[1])
	}
}
