// Package leanrpc serves chosen resource types of a terraform-plugin-framework
// provider without the framework's per-call schema walks, and every other call
// through the framework.
//
// The framework (v1.19) finds each attribute by walking the schema along its
// path, and every step copies the schema's map of top-level attributes; with
// twenty attributes a plan spends most of its CPU there, and the provider's
// own work is a small part of each call. This package resolves the schema once
// per process and then runs, per call, the same steps the framework runs, in
// the same order, with the same requests to the resource's own code
// (validators, plan modifiers, defaults, ValidateConfig, ModifyPlan, Create,
// Read, Update, Delete): the resource is written once, against the framework's
// API, and behaves the same whichever path serves it (differential_test.go
// holds the two side by side).
//
// Only what the package can serve exactly is taken: resources with standard
// attribute types, single nested attributes, no blocks, no identity, and calls
// that carry no private state and no number its attribute's type refuses
// (the framework fails those part of the way through, in its own order).
// Everything else goes to the framework.
package leanrpc

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Server is a tfprotov6.ProviderServer: the framework's, with the chosen
// resource types served by this package.
type Server struct {
	tfprotov6.ProviderServer

	providerTypeName string
	providerData     func() any
	factories        []func() resource.Resource

	once      sync.Once
	resources map[string]*compiled
	skipped   map[string]error
}

// Wrap returns next with the resource types made by factories served by this
// package where it can (see Served). providerData returns what the provider's
// Configure gave its resources (nil before ConfigureProvider).
func Wrap(next tfprotov6.ProviderServer, providerTypeName string, providerData func() any, factories ...func() resource.Resource) *Server {
	return &Server{ProviderServer: next, providerTypeName: providerTypeName, providerData: providerData, factories: factories}
}

func (s *Server) init() {
	s.once.Do(func() {
		s.resources = map[string]*compiled{}
		s.skipped = map[string]error{}
		for _, f := range s.factories {
			c, err := compile(context.Background(), s.providerTypeName, f)
			if err != nil {
				var md resource.MetadataResponse
				f().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: s.providerTypeName}, &md)
				s.skipped[md.TypeName] = err
				continue
			}
			s.resources[c.typeName] = c
		}
	})
}

// Served lists the resource types this package serves, and why the others
// are left to the framework.
func (s *Server) Served() (served []string, skipped map[string]error) {
	s.init()
	for name := range s.resources {
		served = append(served, name)
	}
	return served, s.skipped
}

func (s *Server) lookup(typeName string) *compiled {
	s.init()
	return s.resources[typeName]
}

// newResource makes and configures a resource instance, as the framework
// does for every call.
func (s *Server) newResource(ctx context.Context, c *compiled, diags *diag.Diagnostics) resource.Resource {
	r := c.factory()
	if rc, ok := r.(resource.ResourceWithConfigure); ok {
		var resp resource.ConfigureResponse
		rc.Configure(ctx, resource.ConfigureRequest{ProviderData: s.providerData()}, &resp)
		diags.Append(resp.Diagnostics...)
	}
	return r
}

// begin is the start every call shares: it decodes the call's values
// (missing ones are null) and makes the configured resource. fallback: the
// values hold a number their attribute's type refuses, and the framework
// must serve the call (see convertible). r is nil when diags has an error.
func (s *Server) begin(ctx context.Context, c *compiled, what string, diags *diag.Diagnostics, dvs ...*tfprotov6.DynamicValue) (
	vals []tftypes.Value, r resource.Resource, fallback bool) {
	vals = make([]tftypes.Value, len(dvs))
	for i, dv := range dvs {
		v, err := c.decode(dv)
		if err != nil {
			decodeError(diags, what, err)
			return nil, nil, false
		}
		vals[i] = v
	}
	if !c.convertible(ctx, vals...) {
		return nil, nil, true
	}
	r = s.newResource(ctx, c, diags)
	if diags.HasError() {
		return nil, nil, false
	}
	return vals, r, false
}

func decodeError(diags *diag.Diagnostics, what string, err error) {
	diags.AddError("Unable to Convert "+what, fmt.Sprintf("An unexpected error was encountered when converting the %s from the protocol "+
		"type. This is always an issue in the Terraform Provider and should be reported to the provider developers.\n\n%s", what, err))
}
