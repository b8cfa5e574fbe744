package protocol

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// WholeNumbers rewrites framework diagnostics into words a user can act
// on: a fractional number given to a whole-number attribute (say
// credentials_wo_version = 1.5) fails the framework's conversion with
// "Configuration Read Error ... This is always an error in the provider ...
// Value %!s(*big.Float=1.5) is not an integer."; and the errors of the
// framework's validators whose detail does not name the attribute
// (listvalidator.UniqueValues: "This attribute contains duplicate values of:
// ...", where the CLI shows only the resource for a nested attribute) get
// "Attribute <name>: " in front. Every other diagnostic and call passes
// through unchanged.
type WholeNumbers struct {
	Server
}

// notIntegerRe matches the framework's conversion error and captures the
// number.
var notIntegerRe = regexp.MustCompile(`Value (?:%!s\(\*big\.Float=)?([-+0-9.eE]+)\)? is not an integer\.`)

// unnamedAttribute are the summaries of the framework validators' errors
// whose detail does not name the attribute.
var unnamedAttribute = map[string]bool{"Duplicate List Value": true}

func rewriteNotInteger(ds []*tfprotov6.Diagnostic) {
	for _, d := range ds {
		if d != nil && d.Attribute != nil && unnamedAttribute[d.Summary] && !strings.HasPrefix(d.Detail, "Attribute ") {
			d.Detail = fmt.Sprintf("Attribute %s: %s", attributeName(d.Attribute), d.Detail)
			continue
		}
		if d == nil || !strings.HasSuffix(d.Summary, "Read Error") {
			continue
		}
		m := notIntegerRe.FindStringSubmatch(d.Detail)
		if m == nil {
			continue
		}
		d.Summary = "Invalid number"
		d.Detail = fmt.Sprintf("Attribute %s: %s is not a whole number; use an integer such as 1.", attributeName(d.Attribute), m[1])
	}
}

// attributeName renders an attribute path as Terraform users write it
// (proxy_config.proxy_auth_key_wo_version, timeouts.create).
func attributeName(p *tftypes.AttributePath) string {
	if p == nil {
		return "value"
	}
	var b strings.Builder
	for _, s := range p.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyString:
			fmt.Fprintf(&b, "[%q]", string(s))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		}
	}
	return b.String()
}

func (s WholeNumbers) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	resp, err := s.Server.ValidateResourceConfig(ctx, req)
	if resp != nil {
		rewriteNotInteger(resp.Diagnostics)
	}
	return resp, err
}

func (s WholeNumbers) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.Server.PlanResourceChange(ctx, req)
	if resp != nil {
		rewriteNotInteger(resp.Diagnostics)
	}
	return resp, err
}

func (s WholeNumbers) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	resp, err := s.Server.ValidateProviderConfig(ctx, req)
	if resp != nil {
		rewriteNotInteger(resp.Diagnostics)
	}
	return resp, err
}

func (s WholeNumbers) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	resp, err := s.Server.ValidateDataResourceConfig(ctx, req)
	if resp != nil {
		rewriteNotInteger(resp.Diagnostics)
	}
	return resp, err
}
