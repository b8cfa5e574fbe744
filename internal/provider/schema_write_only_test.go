package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// Write-only attributes are not marked sensitive: Terraform never puts their
// values in the plan or the state (the plan shows "(write-only attribute)"),
// so the mark protects nothing, and Terraform would still record each of
// them, null, in every instance's sensitive_attributes: 19% of an auth
// config's state, re-serialised after every resource of a large apply.
func TestWriteOnlyAttributesNotMarkedSensitive(t *testing.T) {
	var walk func(typeName, prefix string, attrs map[string]schema.Attribute) int
	walk = func(typeName, prefix string, attrs map[string]schema.Attribute) int {
		n := 0
		for name, a := range attrs {
			if a.IsWriteOnly() {
				n++
				if a.IsSensitive() {
					t.Errorf("%s.%s%s: write-only and sensitive", typeName, prefix, name)
				}
			}
			if nested, ok := a.(schema.SingleNestedAttribute); ok {
				n += walk(typeName, prefix+name+".", nested.Attributes)
			}
		}
		return n
	}
	total := 0
	for _, f := range (&ServiceProvider{}).Resources(context.Background()) {
		r := f()
		var md resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: providerTypeName}, &md)
		var sr resource.SchemaResponse
		r.Schema(context.Background(), resource.SchemaRequest{}, &sr)
		total += walk(md.TypeName, "", sr.Schema.Attributes)
	}
	if total == 0 {
		t.Fatal("no write-only attribute found: the walk is broken")
	}
}
