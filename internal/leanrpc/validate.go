package leanrpc

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ValidateResourceConfig: the resource's config validators and
// ValidateConfig, then every attribute's checks and validators.
func (s *Server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	c := s.lookup(req.TypeName)
	if c == nil {
		return s.ProviderServer.ValidateResourceConfig(ctx, req)
	}
	var diags diag.Diagnostics
	vals, r, fallback := s.begin(ctx, c, "Configuration", &diags, req.Config)
	if fallback {
		return s.ProviderServer.ValidateResourceConfig(ctx, req)
	}
	if r == nil {
		return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: protoDiags(ctx, diags)}, nil
	}
	cfg := vals[0]
	config := tfsdk.Config{Schema: c.schema, Raw: cfg}
	caps := resource.ValidateConfigClientCapabilities{}
	if req.ClientCapabilities != nil {
		caps.WriteOnlyAttributesAllowed = req.ClientCapabilities.WriteOnlyAttributesAllowed
	}
	vreq := resource.ValidateConfigRequest{ClientCapabilities: caps, Config: config}
	if rv, ok := r.(resource.ResourceWithConfigValidators); ok {
		for _, v := range rv.ConfigValidators(ctx) {
			vresp := &resource.ValidateConfigResponse{}
			v.ValidateResource(ctx, vreq, vresp)
			diags.Append(vresp.Diagnostics...)
		}
	}
	if rv, ok := r.(resource.ResourceWithValidateConfig); ok {
		vresp := &resource.ValidateConfigResponse{}
		rv.ValidateConfig(ctx, vreq, vresp)
		diags.Append(vresp.Diagnostics...)
	}
	schemaCaps := validator.ValidateSchemaClientCapabilities{WriteOnlyAttributesAllowed: caps.WriteOnlyAttributesAllowed}
	attrs := fields(cfg, c.tfType)
	for _, n := range c.attrs {
		n.validateConfig(ctx, attrs[n.name], path.Root(n.name), path.MatchRoot(n.name), config, schemaCaps, &diags)
	}
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: protoDiags(ctx, diags)}, nil
}

// validateConfig is the framework's AttributeValidate for one attribute.
func (n *node) validateConfig(ctx context.Context, v tftypes.Value, p path.Path, expr path.Expression, config tfsdk.Config,
	caps validator.ValidateSchemaClientCapabilities, diags *diag.Diagnostics) {
	av, d := n.value(ctx, v)
	if d.HasError() {
		diags.Append(d...)
		return
	}
	isNull, isUnknown := v.IsNull(), !v.IsKnown()
	if n.computed && !n.optional && !isNull {
		diags.AddAttributeError(p, "Invalid Configuration for Read-Only Attribute",
			"Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\n"+
				"Refer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
	}
	if n.required && isNull {
		diags.AddAttributeError(p, "Missing Configuration for Required Attribute",
			fmt.Sprintf("Must set a configuration value for the %s attribute as the provider has marked it as required.\n\n", p.String())+
				"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.")
	}
	if !caps.WriteOnlyAttributesAllowed && n.writeOnly && !isNull {
		diags.AddAttributeError(p, "WriteOnly Attribute Not Allowed",
			fmt.Sprintf("The resource contains a non-null value for WriteOnly attribute %s. Write-only attributes are only supported in Terraform 1.11 and later.", p.String()))
	}
	if n.validate != nil {
		diags.Append(n.validate(ctx, validateIn{value: av, path: p, expr: expr, config: config, caps: caps})...)
	}
	if len(n.children) > 0 && !isNull && !isUnknown {
		vals := fields(v, n.tfType.(tftypes.Object))
		for _, ch := range n.children {
			ch.validateConfig(ctx, vals[ch.name], p.AtName(ch.name), expr.AtName(ch.name), config, caps, diags)
		}
	}
	if n.deprecation != "" && !isNull && !isUnknown {
		diags.AddAttributeWarning(p, "Attribute Deprecated", n.deprecation)
	}
}
