package protocol

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ListConfigPaths puts the validation errors of list resources on the
// attribute they are about. A list block holds its filters in a nested
// `config` block:
//
//	list "service_connected_account" "all" {
//	  provider = service
//	  config {
//	    statuses = ["ACTIVATED"]
//	  }
//	}
//
// Terraform sends the provider only the `config` block's value, so the
// framework's validators report a filter at a path relative to it
// (statuses[0]). Terraform (1.14 to 1.16 at least) prefixes the diagnostics
// of ListResource with the `config` block itself, but not those of
// ValidateListResourceConfig: it looks statuses[0] up from the list block,
// finds no `statuses` there and points at the block's first line.
// Prefixing those paths with `config` makes Terraform quote the value
// written in the `config` block. Every other RPC, ListResource included,
// passes through unchanged.
type ListConfigPaths struct {
	Server
}

// inListConfig prefixes every attribute path of ds with the `config` block.
func inListConfig(ds []*tfprotov6.Diagnostic) {
	for _, d := range ds {
		if d == nil || d.Attribute == nil {
			continue
		}
		steps := append([]tftypes.AttributePathStep{tftypes.AttributeName("config")}, d.Attribute.Steps()...)
		d.Attribute = tftypes.NewAttributePathWithSteps(steps)
	}
}

func (s ListConfigPaths) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	resp, err := s.Server.ValidateListResourceConfig(ctx, req)
	if resp != nil {
		inListConfig(resp.Diagnostics)
	}
	return resp, err
}
