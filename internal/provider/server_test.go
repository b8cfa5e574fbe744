package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

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
	served, skipped := srv.(*leanrpc.Server).Served()
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
