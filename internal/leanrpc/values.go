package leanrpc

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fields returns the attribute values of an object value; a null or unknown
// object gives null or unknown attributes, as the framework's path lookups
// do.
func fields(obj tftypes.Value, t tftypes.Object) map[string]tftypes.Value {
	out := make(map[string]tftypes.Value, len(t.AttributeTypes))
	if obj.IsKnown() && !obj.IsNull() {
		if err := obj.As(&out); err == nil {
			return out
		}
	}
	var raw any
	if !obj.IsKnown() {
		raw = tftypes.UnknownValue
	}
	for name, at := range t.AttributeTypes {
		out[name] = tftypes.NewValue(at, raw)
	}
	return out
}

// walk rebuilds obj (an object of the given nodes) bottom-up, like
// tftypes.Transform restricted to schema attributes: fn sees each attribute
// after its nested attributes were rebuilt. extra is the matching value of
// another object (e.g. the configuration) passed down in step; the
// attributes of an unknown extra object are unknown (as tftypes'
// WalkAttributePath, which stops at the unknown object, finds them).
func walk(obj, extra tftypes.Value, t tftypes.Object, nodes []*node, p path.Path,
	fn func(n *node, v, extra tftypes.Value, p path.Path) (tftypes.Value, error)) (tftypes.Value, error) {
	return walkExtra(obj, extra, t, nodes, p, false, fn)
}

// walkConfig is walk with the attributes of an unknown extra object null,
// as the framework's Data.ValueAtPath reads the configuration (its
// TransformDefaults, for one, applies defaults under an unknown object).
func walkConfig(obj, extra tftypes.Value, t tftypes.Object, nodes []*node, p path.Path,
	fn func(n *node, v, extra tftypes.Value, p path.Path) (tftypes.Value, error)) (tftypes.Value, error) {
	return walkExtra(obj, extra, t, nodes, p, true, fn)
}

func walkExtra(obj, extra tftypes.Value, t tftypes.Object, nodes []*node, p path.Path, unknownAsNull bool,
	fn func(n *node, v, extra tftypes.Value, p path.Path) (tftypes.Value, error)) (tftypes.Value, error) {
	if !obj.IsKnown() || obj.IsNull() {
		return obj, nil
	}
	if unknownAsNull && !extra.IsKnown() {
		extra = tftypes.NewValue(t, nil)
	}
	vals, extras := fields(obj, t), fields(extra, t)
	changed := false
	for _, n := range nodes {
		v, ev := vals[n.name], extras[n.name]
		np := p.AtName(n.name)
		nv := v
		if len(n.children) > 0 {
			var err error
			if nv, err = walkExtra(v, ev, n.tfType.(tftypes.Object), n.children, np, unknownAsNull, fn); err != nil {
				return obj, err
			}
		}
		nv, err := fn(n, nv, ev, np)
		if err != nil {
			return obj, err
		}
		if !nv.Equal(v) {
			vals[n.name] = nv
			changed = true
		}
	}
	if !changed {
		return obj, nil
	}
	return tftypes.NewValue(t, vals), nil
}

// decode reads a request's value; a missing one is null.
func (c *compiled) decode(dv *tfprotov6.DynamicValue) (tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(c.tfType, nil), nil
	}
	return dv.Unmarshal(c.tfType)
}

func (c *compiled) encode(v tftypes.Value, diags *diag.Diagnostics) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(c.tfType, v)
	if err != nil {
		diags.AddError("Unable to Convert Value", fmt.Sprintf("Encoding the %s value failed: %s. Please report this to the provider developers.", c.typeName, err))
		return nil
	}
	return &dv
}

// protoDiags converts diagnostics for the wire, as the framework does.
func protoDiags(ctx context.Context, diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{Summary: d.Summary(), Detail: d.Detail(), Severity: tfprotov6.DiagnosticSeverityInvalid}
		switch d.Severity() {
		case diag.SeverityError:
			pd.Severity = tfprotov6.DiagnosticSeverityError
		case diag.SeverityWarning:
			pd.Severity = tfprotov6.DiagnosticSeverityWarning
		}
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			ap, err := tfPath(ctx, dp.Path())
			if err != nil {
				out = append(out, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: "Unable to Convert Attribute Path",
					Detail: "An unexpected error occurred while trying to convert an attribute path. Please report the following to the provider " +
						"developers.\n\nAttribute Path: " + dp.Path().String() + "\nOriginal Error: " + err.Error()})
			}
			pd.Attribute = ap
		}
		out = append(out, pd)
	}
	return out
}

func tfPath(ctx context.Context, p path.Path) (*tftypes.AttributePath, error) {
	var steps []tftypes.AttributePathStep
	for _, s := range p.Steps() {
		switch s := s.(type) {
		case path.PathStepAttributeName:
			steps = append(steps, tftypes.AttributeName(string(s)))
		case path.PathStepElementKeyInt:
			steps = append(steps, tftypes.ElementKeyInt(int64(s)))
		case path.PathStepElementKeyString:
			steps = append(steps, tftypes.ElementKeyString(string(s)))
		case path.PathStepElementKeyValue:
			v, err := s.ToTerraformValue(ctx)
			if err != nil {
				return nil, fmt.Errorf("unable to convert attr.Value (%s) to tftypes.Value: %w", s.Value.String(), err)
			}
			steps = append(steps, tftypes.ElementKeyValue(v))
		default:
			return nil, fmt.Errorf("unknown path.PathStep: %#v", s)
		}
	}
	return tftypes.NewAttributePathWithSteps(steps), nil
}

// requiresReplace sorts and de-duplicates the paths, as the framework does.
func requiresReplace(ctx context.Context, ps path.Paths, diags *diag.Diagnostics) []*tftypes.AttributePath {
	sort.Slice(ps, func(i, j int) bool { return ps[i].String() < ps[j].String() })
	var out []*tftypes.AttributePath
	for i, p := range ps {
		if i > 0 && p.Equal(ps[i-1]) {
			continue
		}
		ap, err := tfPath(ctx, p)
		if err != nil {
			diags.AddError("Unable to Convert Attribute Path", err.Error())
			continue
		}
		out = append(out, ap)
	}
	return out
}

// value converts one attribute's terraform value.
func (n *node) value(ctx context.Context, v tftypes.Value) (attr.Value, diag.Diagnostics) {
	av, err := n.typ.ValueFromTerraform(ctx, v)
	if err != nil {
		return nil, diag.Diagnostics{diag.NewErrorDiagnostic("Value Conversion Error",
			fmt.Sprintf("An unexpected error was encountered trying to convert the %s value. Please report this to the provider developers.\n\n%s", n.name, err))}
	}
	return av, nil
}

// convertible: every attribute value in vs converts to its attribute's type.
// Terraform can send numbers the framework's types refuse (a fraction for an
// Int64 attribute, a number beyond float64); the framework then fails part
// of the way through a call, at a point (and with a message and partial
// result) that depends on its order of work, so such calls are left to it.
func (c *compiled) convertible(ctx context.Context, vs ...tftypes.Value) bool {
	if !c.numbers {
		return true
	}
	for _, v := range vs {
		if !convertible(ctx, v, c.tfType, c.attrs) {
			return false
		}
	}
	return true
}

func convertible(ctx context.Context, obj tftypes.Value, t tftypes.Object, nodes []*node) bool {
	if !obj.IsKnown() || obj.IsNull() {
		return true
	}
	vals := fields(obj, t)
	for _, n := range nodes {
		if !n.numbers {
			continue
		}
		if len(n.children) > 0 {
			if !convertible(ctx, vals[n.name], n.tfType.(tftypes.Object), n.children) {
				return false
			}
			continue
		}
		if _, err := n.typ.ValueFromTerraform(ctx, vals[n.name]); err != nil {
			return false
		}
	}
	return true
}
